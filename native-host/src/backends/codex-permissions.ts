/**
 * Codex's approval requests in Tether's terms: a command to run, a file change to apply, an MCP server's elicitation
 * each become an `approval/request` card, and the user's decision goes back in the shape Codex asked in. Codex may
 * withdraw a request itself (an interrupt, the turn's end: `serverRequest/resolved`); the card is then settled as
 * cancelled and Codex gets no answer at all.
 */
import type { ApprovalOutcome, RequestId } from '@tether/protocol';
import { choicesFrom, codexDecision } from './codex-map';
import { elicitation } from './codex-elicitation';
import { type ApprovalSpec, asRecord, str } from './dialect-core';
import type { ApprovalSettlement } from '../session/approvals';

/** What Codex's permissions need from the adapter: asking the client, and withdrawing what Codex withdrew. */
export interface CodexPermissionDeps {
  /** Asks the client about `spec`; resolves with how it was decided. */
  ask(spec: ApprovalSpec): { readonly requestId: string; readonly settled: Promise<ApprovalSettlement> };
  /** Settles an open approval as cancelled without asking anyone. */
  withdraw(requestId: string): void;
}

/** What a request Codex resolved itself (serverRequest/resolved) is left with: no answer at all. */
const UNANSWERED = new Promise<never>(() => undefined);

/** The server requests of Codex that are permissions; `answer` handles exactly these. */
export const CODEX_PERMISSION_REQUESTS = [
  'item/commandExecution/requestApproval',
  'item/fileChange/requestApproval',
  'mcpServer/elicitation/request',
] as const;

/** One of Codex's permission request methods. */
export type CodexPermissionRequest = (typeof CODEX_PERMISSION_REQUESTS)[number];

/** Whether a server request of Codex is a permission that `CodexPermissions.answer` handles. */
export function isCodexPermission(method: string): method is CodexPermissionRequest {
  return (CODEX_PERMISSION_REQUESTS as readonly string[]).includes(method);
}

/** The permissions Codex asks for in one adapter: the cards open for them and the file changes they refer to. */
export class CodexPermissions {
  /** Codex server request id -> Tether approval id, to withdraw what Codex resolves itself (interrupt). */
  private readonly approvalByCodexId = new Map<RequestId, string>();
  /** A file change's paths, from its item: Codex's approval request names only the item. */
  private readonly pendingChanges = new Map<string, unknown>();

  constructor(private readonly deps: CodexPermissionDeps) {}

  /** Follows Codex's `item/started` and `item/completed` for the file changes an approval request may name. */
  noteItem(method: 'item/started' | 'item/completed', raw: Record<string, unknown>): void {
    if (raw.type !== 'fileChange' || typeof raw.id !== 'string') return;
    if (method === 'item/started') this.pendingChanges.set(raw.id, raw.changes);
    else this.pendingChanges.delete(raw.id);
  }

  /** Asks the client about Codex's request `codexId`; resolves with the answer Codex expects. */
  answer(method: CodexPermissionRequest, p: Record<string, unknown>, codexId: RequestId): Promise<unknown> {
    const threadId = str(p.threadId) ?? '';
    const turnId = str(p.turnId) ?? '';
    switch (method) {
      case 'item/commandExecution/requestApproval': {
        const command = str(p.command);
        return this.ask(codexId, {
          threadId,
          turnId,
          toolName: 'shell',
          preview: command ?? str(p.reason) ?? 'Run a command',
          arguments: { command, cwd: p.cwd, reason: p.reason ?? undefined },
          choices: choicesFrom(p.availableDecisions),
          // Codex's acceptForSession approves this exact command for the rest of the session.
          sessionScope: 'command',
        });
      }
      case 'item/fileChange/requestApproval': {
        const changes = this.pendingChanges.get(str(p.itemId) ?? '');
        const paths = Array.isArray(changes) ? changes.map((c) => str(asRecord(c).path)).filter(Boolean) : [];
        return this.ask(codexId, {
          threadId,
          turnId,
          toolName: 'apply_patch',
          preview: str(p.reason) ?? (paths.length > 0 ? `Change ${paths.join(', ')}` : 'Apply file changes'),
          arguments: { changes: changes ?? [], reason: p.reason ?? undefined, grantRoot: p.grantRoot ?? undefined },
          choices: ['allow', 'allow_session', 'deny'],
        });
      }
      case 'mcpServer/elicitation/request': {
        const asked = elicitation(p);
        return this.ask(codexId, asked.spec, asked.answer);
      }
    }
  }

  /** Codex withdrew request `requestId` (`serverRequest/resolved`): its card is settled as cancelled, unanswered. */
  resolvedByCodex(requestId: unknown): void {
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
    const approval = this.approvalByCodexId.get(requestId);
    if (approval === undefined) return;
    this.approvalByCodexId.delete(requestId);
    this.deps.withdraw(approval);
  }

  /** Asks the client; Codex gets the decision, unless it withdrew the request itself (then it gets nothing). */
  private ask(
    codexId: RequestId,
    spec: ApprovalSpec,
    answer: (outcome: ApprovalOutcome) => unknown = (outcome) => ({ decision: codexDecision(outcome) }),
  ): Promise<unknown> {
    const { requestId, settled } = this.deps.ask(spec);
    this.approvalByCodexId.set(codexId, requestId);
    return settled.then(({ outcome }) => (this.approvalByCodexId.delete(codexId) ? answer(outcome) : UNANSWERED));
  }
}
