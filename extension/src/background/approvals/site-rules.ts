/**
 * Site rules: "always allow / always deny reading, acting on or opening origin O". Pure functions over the stored
 * list. Rules are for what the extension itself does to a site; a tool acting on the user's machine never gets one,
 * and a high-risk action asks whatever a rule says (the broker's job).
 */
import { z } from 'zod';
import { toolClassOf, type ToolClass } from '../../shared/action-risk';
import { SiteRule } from '../../shared/records';

/** The rule that decides `toolClass` on `origin`, if any (a deny rule wins over an allow rule). */
export function matchRule(rules: readonly SiteRule[], origin: string, toolClass: ToolClass): SiteRule | undefined {
  const hits = rules.filter((r) => r.origin === origin && r.toolClass === toolClass);
  return hits.find((r) => r.decision === 'deny') ?? hits[0];
}

/** Whether a rule could ever decide anything: it names an http(s) origin exactly (not a path, not `file:`). */
export function isApplicableRule(rule: Pick<SiteRule, 'origin'>): boolean {
  return ruleOrigin(rule.origin) === rule.origin;
}

/** How rules were stored before they were kept per class: "always allow page_read on O". */
const LegacyRule = z.object({
  id: z.string(),
  origin: z.string(),
  toolName: z.string(),
  decision: z.enum(['allow', 'deny']),
  createdAtMs: z.number(),
});

/**
 * A rule as storage holds it: the current shape, or the old per-tool one ("always allow page_read on O") read as the
 * class rule it means. An old rule that named no page tool could never apply and fails to parse.
 */
export const StoredSiteRule = z.union([
  SiteRule,
  LegacyRule.transform((old, ctx) => {
    const toolClass = toolClassOf(old.toolName);
    if (!toolClass) {
      ctx.addIssue({ code: 'custom', message: `"${old.toolName}" is not a page tool` });
      return z.NEVER;
    }
    const { toolName: _, ...rest } = old;
    return { ...rest, toolClass };
  }),
]);

/** The list with a rule for (origin, class) set to `decision`, replacing any earlier rule for the same pair. */
export function withRule(
  rules: readonly SiteRule[],
  rule: Omit<SiteRule, 'id' | 'createdAtMs'>,
  now: number,
  newId: () => string,
): SiteRule[] {
  const rest = rules.filter((r) => !(r.origin === rule.origin && r.toolClass === rule.toolClass));
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
