/**
 * Every pending approval of the server, in one map keyed by request id. An approval is decided once: by the answer to
 * an `approval/request` server request, by `approval/resolve`, or withdrawn by the server (interrupt: `cancelled`).
 * An answer that decides nothing valid (an error, an unreadable result, a decision that was not offered) is a deny:
 * waiting for a better one would leave the turn hanging with nobody being asked. Only "method not found" keeps it
 * open: that client answers through `approval/resolve` (as the dialect adapters' broker does too).
 */
import {
  ErrorCode,
  RpcError,
  type ApprovalDecision,
  type ApprovalOutcome,
  type ApprovalRequestParams,
} from '@tether/protocol';
import type { Peer } from './peer';

/** How an approval ended; `reason` says why when the server decided (an invalid answer), for the tool result. */
export interface ApprovalSettlement {
  readonly outcome: ApprovalOutcome;
  readonly reason?: string;
}

/** A pending approval. */
export interface PendingApproval {
  readonly params: ApprovalRequestParams;
  /** Peers that got the server request, with the controller that withdraws it. */
  readonly asked: Map<Peer, AbortController>;
}

/** The one map of pending approvals; `onResolved` runs synchronously when an approval is decided. */
export class ApprovalRegistry {
  private readonly pending = new Map<string, PendingApproval & { settle: (s: ApprovalSettlement) => void }>();

  constructor(
    private readonly onResolved: (params: ApprovalRequestParams, outcome: ApprovalOutcome) => void,
    private readonly log: (line: string) => void,
  ) {}

  /** Registers an approval, asks every peer in `peers`, resolves with how it ended. */
  open(params: ApprovalRequestParams, peers: Iterable<Peer>): Promise<ApprovalSettlement> {
    return new Promise((settle) => {
      this.pending.set(params.requestId, { params, asked: new Map(), settle });
      for (const peer of peers) this.ask(params.requestId, peer);
    });
  }

  /**
   * Sends the server request to `peer` unless it already has it. A peer that goes away leaves the approval pending
   * (another client, or this one resumed, is asked); an answer that decides nothing valid denies it.
   */
  ask(requestId: string, peer: Peer): void {
    const approval = this.pending.get(requestId);
    if (!approval || approval.asked.has(peer) || !peer.isOpen) return;
    const controller = new AbortController();
    approval.asked.set(peer, controller);
    const choices = approval.params.choices;
    const deny = (problem: string): void => {
      this.log(`approval ${requestId}: client ${peer.id} answered ${problem}; treated as deny`);
      this.settle(requestId, 'deny', `The client's answer to the approval request was not a valid decision (${problem}), so the call was denied.`);
    };
    peer.request('approval/request', approval.params, controller.signal).then(
      (result) => {
        if (this.pending.get(requestId) !== approval) return;
        if (choices.includes(result.decision)) this.settle(requestId, result.decision);
        else deny(`decision "${result.decision}", which was not offered (choices: ${choices.join(', ')})`);
      },
      (error: unknown) => {
        approval.asked.delete(peer);
        if (controller.signal.aborted || this.pending.get(requestId) !== approval) return;
        // A client without a handler for approval/request (-32601) decides through approval/resolve; any other
        // RpcError is the peer's own answer (an error response, or a result that is not a valid decision).
        if (error instanceof RpcError && error.code !== ErrorCode.MethodNotFound) deny(`${error.code} "${error.message.slice(0, 300)}"`);
        else this.log(`approval ${requestId}: client ${peer.id} did not decide (${errorText(error)}); waiting for approval/resolve`);
      },
    );
  }

  /** Decides an approval from `approval/resolve`; throws -32040 when it is unknown, decided, or on another turn. */
  resolve(ref: { threadId: string; turnId: string; requestId: string }, decision: ApprovalDecision): void {
    const approval = this.pending.get(ref.requestId);
    if (!approval || approval.params.threadId !== ref.threadId || approval.params.turnId !== ref.turnId) {
      throw RpcError.approvalNotFound(ref.requestId);
    }
    if (!approval.params.choices.includes(decision)) {
      throw new RpcError(
        ErrorCode.InvalidParams,
        `Decision ${decision} is not offered for approval ${ref.requestId}: choose one of ${approval.params.choices.join(', ')}`,
        { requestId: ref.requestId, choices: approval.params.choices },
      );
    }
    this.settle(ref.requestId, decision);
  }

  /** Withdraws every pending approval of a turn with `outcome` (default `cancelled`). */
  cancelTurn(turnId: string, outcome: ApprovalOutcome = 'cancelled'): void {
    for (const [id, approval] of [...this.pending]) if (approval.params.turnId === turnId) this.settle(id, outcome);
  }

  /** Pending approvals of a thread, oldest first. */
  forThread(threadId: string): PendingApproval[] {
    return [...this.pending.values()].filter((a) => a.params.threadId === threadId);
  }

  /** Forgets a peer that disconnected (its requests are already rejected by its connection). */
  dropPeer(peer: Peer): void {
    for (const approval of this.pending.values()) approval.asked.delete(peer);
  }

  private settle(requestId: string, outcome: ApprovalOutcome, reason?: string): void {
    const approval = this.pending.get(requestId);
    if (!approval) return;
    this.pending.delete(requestId);
    for (const controller of approval.asked.values()) controller.abort(new Error(`approval ${requestId} was decided`));
    this.onResolved(approval.params, outcome);
    approval.settle(reason === undefined ? { outcome } : { outcome, reason });
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
