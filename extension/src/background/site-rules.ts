/** Site rules: "always allow / always deny tool T on origin O". Pure functions over the stored list. */
import type { SiteRule } from '../shared/messages';

/** The rule that decides `toolName` on `origin`, if any (a deny rule wins over an allow rule). */
export function matchRule(rules: readonly SiteRule[], origin: string, toolName: string): SiteRule | undefined {
  const hits = rules.filter((r) => r.origin === origin && r.toolName === toolName);
  return hits.find((r) => r.decision === 'deny') ?? hits[0];
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
