/**
 * Site rules: "always allow / always deny page tool T on origin O". Pure functions over the stored list. Rules are
 * for what the extension itself does to a site; a tool acting on the user's machine never gets one.
 */
import type { SiteRule } from '../shared/records';
import { PAGE_TOOL_NAMES } from './page-tools';

/** The rule that decides `toolName` on `origin`, if any (a deny rule wins over an allow rule). */
export function matchRule(rules: readonly SiteRule[], origin: string, toolName: string): SiteRule | undefined {
  const hits = rules.filter((r) => r.origin === origin && r.toolName === toolName);
  return hits.find((r) => r.decision === 'deny') ?? hits[0];
}

/**
 * Whether a rule could ever decide anything: it names one of the extension's page tools and an http(s) origin.
 * Anything else (a rule for `bash` written into storage by hand, a path instead of an origin) is not kept.
 */
export function isApplicableRule(rule: Pick<SiteRule, 'origin' | 'toolName'>): boolean {
  return PAGE_TOOL_NAMES.has(rule.toolName) && ruleOrigin(rule.origin) === rule.origin;
}

/** The list with a rule for (origin, tool) set to `decision`, replacing any earlier rule for the same pair. */
export function withRule(
  rules: readonly SiteRule[],
  rule: Omit<SiteRule, 'id' | 'createdAtMs'>,
  now: number,
  newId: () => string,
): SiteRule[] {
  const rest = rules.filter((r) => !(r.origin === rule.origin && r.toolName === rule.toolName));
  return [...rest, { ...rule, id: newId(), createdAtMs: now }];
}

/** The origin rules are keyed by, or undefined for pages no rule may cover (no http(s) origin). */
export function ruleOrigin(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
}
