/**
 * An ACP agent's `session/request_permission` in Tether's terms: one `approval/request` card in the side panel, the
 * thread waiting on it meanwhile, and the user's decision sent back as the agent's own option. A refused tool call ends
 * as declined at once, and a call of Tether's own page tools is allowed here once because the extension approves it
 * when it runs.
 */
import { type ApprovalSpec, asRecord, str } from './dialect-core';
import { approvalCard, permissionChoices, permissionOption } from './acp-map';
import type { AcpTurn } from './acp-turn';
import type { ApprovalSettlement } from '../session/approvals';

/** What answering a permission request needs from the adapter. */
export interface AcpPermissionDeps {
  /** The thread of an agent session and its running turn, if it has both. */
  turnOf(sessionId: string): { readonly threadId: string; readonly turn: AcpTurn } | undefined;
  /** Whether `turn` is still the running turn of its thread. */
  isRunning(turn: AcpTurn): boolean;
  /** Whether the tool call (with its announced title) is one of Tether's page tools over MCP. */
  isTetherTool(toolCall: Record<string, unknown>, title: string | undefined): boolean;
  /** Asks the client about `spec`; resolves with how it was decided. */
  ask(spec: ApprovalSpec): { readonly settled: Promise<ApprovalSettlement> };
  /** Tells the client the thread waits on the user, or runs again. */
  setStatus(threadId: string, status: 'waitingOnApproval' | 'running'): void;
}

/** The ACP answer that cancels a permission request (no turn to ask for, or no option for the decision). */
const CANCELLED = { outcome: { outcome: 'cancelled' } };

/** Answers a `session/request_permission` (`params` as the agent sent it): at once, or when the user decides. */
export function answerPermission(params: unknown, deps: AcpPermissionDeps): unknown {
  const p = asRecord(params);
  const running = deps.turnOf(str(p.sessionId) ?? '');
  if (!running) return CANCELLED;
  const { threadId, turn } = running;
  const toolCall = asRecord(p.toolCall);
  const options = (Array.isArray(p.options) ? p.options : []).map(asRecord);
  turn.ensureToolCall(toolCall);
  // One prompt, in the side panel: the MCP call that follows goes through the extension's approval. A refusal
  // here would end the agent's turn without telling the model; `allow_always` would outlive this one call.
  const once = options.find((o) => o.kind === 'allow_once');
  if (once && deps.isTetherTool(toolCall, turn.toolTitle(str(toolCall.toolCallId) ?? ''))) {
    return { outcome: { outcome: 'selected', optionId: once.optionId } };
  }
  deps.setStatus(threadId, 'waitingOnApproval');
  const { settled } = deps.ask({
    threadId,
    turnId: turn.id,
    ...approvalCard(toolCall),
    choices: permissionChoices(options),
  });
  return settled.then(({ outcome }) => {
    const toolCallId = str(toolCall.toolCallId);
    if (outcome === 'deny' && toolCallId) turn.decline(toolCallId);
    const option = permissionOption(options, outcome);
    if (deps.isRunning(turn)) deps.setStatus(threadId, 'running');
    return option ? { outcome: { outcome: 'selected', optionId: option.optionId } } : CANCELLED;
  });
}
