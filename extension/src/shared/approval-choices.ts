/** Which choices an approval card offers, the same rule for the card and for the worker that checks the answer. */
import type { ApprovalChoice, PendingApproval } from './records';

/**
 * Whether an approval is about a page tool on a page with a web origin, the only kind a site rule or an "allow for
 * this thread" limited to one origin can cover. Decided by the source, never by the tool's name: every `server`
 * approval (the backend's `bash`, Codex command and file-change approvals, ACP permission requests) acts on the
 * user's machine, whatever the backend calls it.
 */
export function isPageApprovalOnSite(a: Pick<PendingApproval, 'source' | 'origin' | 'page'>): boolean {
  return a.source === 'client-tool' && a.page !== undefined && /^https?:\/\//.test(a.origin);
}

/**
 * The choices a card offers for an approval, and the only ones the worker accepts. A machine tool gets allow once,
 * allow for this thread (when the backend offers it) and deny; a page tool gets its thread grant and the site rules
 * only on a page with a web origin, since both are limited to that origin. An external MCP client's card offers no
 * site rule, and its thread grant covers that client's connection only. A high-risk page action gets allow once
 * and deny only.
 */
export function offeredChoices(
  a: Pick<PendingApproval, 'source' | 'origin' | 'choices' | 'page' | 'caller'>,
): ApprovalChoice[] {
  // A high-risk page action is decided each time: nothing the user could remember applies to it.
  if (a.page && a.page.highRisk.length > 0) return a.choices.includes('allow') ? ['allow', 'deny'] : ['deny'];
  const onSite = isPageApprovalOnSite(a);
  // A grant to an external client is kept for its connection: one that names none gets nothing remembered, and its
  // card sets no site rule, which would cover every agent and client (the options page lists those).
  const external = a.caller !== undefined;
  const grantable = !external || a.caller?.connection !== undefined;
  const out: ApprovalChoice[] = [];
  if (a.choices.includes('allow')) out.push('allow');
  if (a.choices.includes('allow_session') && (a.source === 'server' || (onSite && grantable)))
    out.push('allow_session');
  if (onSite && !external && a.choices.includes('allow')) out.push('always_allow_site');
  out.push('deny');
  if (onSite && !external) out.push('always_deny_site');
  return out;
}
