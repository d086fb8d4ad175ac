/**
 * The open approvals of one server (the app-server, or one dialect adapter), in one map keyed by request id. An approval
 * is decided once: by the answer to an `approval/request` server request, by `approval/resolve`, or withdrawn by the
 * server (interrupt, turn end, agent gone: `cancelled`; a deadline: `timeout`). Whatever decides first wins.
 * An answer that decides nothing valid (an error, an unreadable result, a decision that was not offered) is a deny:
 * waiting for a better one would leave the turn hanging with nobody being asked. Only "method not found" keeps it
 * open: that client answers through `approval/resolve`. A client that goes away leaves it open for another one.
 */
import {
  type ApprovalDecision,
  type ApprovalOutcome,
  type ApprovalRequestParams,
  type ApprovalRequestResult,
  ErrorCode,
  errorMessage,
  RpcError,
} from '@tether/protocol';

/** A client that can be asked for an approval (an app-server session, an adapter's client side). */
export interface ApprovalPeer {
  /** Small number for logs. */
  readonly id: number;
  /** False once the connection closed: it is not asked. */
  readonly isOpen: boolean;
  /** Sends `approval/request`; rejects on an error answer, a result its row cannot read, close, or abort of `signal`. */
  request(
    method: 'approval/request',
    params: ApprovalRequestParams,
    signal: AbortSignal,
  ): Promise<ApprovalRequestResult>;
}

/** How an approval ended; `reason` says why when the server decided (an invalid answer), for the tool result. */
export interface ApprovalSettlement {
  readonly outcome: ApprovalOutcome;
  readonly reason?: string;
}

/** An approval waiting for its decision. */
export interface OpenApproval {
  readonly params: ApprovalRequestParams;
  /** Peers that got the server request, with the controller that withdraws it. */
  readonly asked: Map<ApprovalPeer, AbortController>;
}

/** Which approvals `approval/resolve` names. */
export interface ApprovalRef {
  readonly threadId: string;
  readonly turnId: string;
  readonly requestId: string;
}

/** The one map of open approvals; `onResolved` runs synchronously when an approval is decided (before its promise). */
export class Approvals {
  private readonly open = new Map<string, OpenApproval & { settle: (s: ApprovalSettlement) => void }>();

  constructor(
    private readonly onResolved: (params: ApprovalRequestParams, outcome: ApprovalOutcome) => void,
    private readonly log: (line: string) => void,
  ) {}

  /** Number of open approvals. */
  get size(): number {
    return this.open.size;
  }

  /** Opens an approval, asks every peer in `peers`, resolves with how it ended. */
  request(params: ApprovalRequestParams, peers: Iterable<ApprovalPeer>): Promise<ApprovalSettlement> {
    return new Promise((settle) => {
      this.open.set(params.requestId, { params, asked: new Map(), settle });
      for (const peer of peers) this.ask(params.requestId, peer);
    });
  }

  /** Sends the server request to `peer` unless it already has it (a resumed client is asked again). */
  ask(requestId: string, peer: ApprovalPeer): void {
    const approval = this.open.get(requestId);
    if (!approval || approval.asked.has(peer) || !peer.isOpen) return;
    const controller = new AbortController();
    approval.asked.set(peer, controller);
    const choices = approval.params.choices;
    const deny = (problem: string): void => {
      this.log(`approval ${requestId}: client ${peer.id} answered ${problem}; treated as deny`);
      this.settle(
        requestId,
        'deny',
        `The client's answer to the approval request was not a valid decision (${problem}), so the call was denied.`,
      );
    };
    peer.request('approval/request', approval.params, controller.signal).then(
      (result) => {
        if (this.open.get(requestId) !== approval) return;
        if (choices.includes(result.decision)) this.settle(requestId, result.decision);
        else deny(`decision "${result.decision}", which was not offered (choices: ${choices.join(', ')})`);
      },
      (error: unknown) => {
        approval.asked.delete(peer);
        if (controller.signal.aborted || this.open.get(requestId) !== approval) return;
        // A client without a handler for approval/request (-32601) decides through approval/resolve; any other
        // RpcError is the peer's own answer (an error response, or a result that is not a valid decision).
        if (error instanceof RpcError && error.code !== ErrorCode.MethodNotFound)
          deny(`${error.code} "${error.message.slice(0, 300)}"`);
        else
          this.log(
            `approval ${requestId}: client ${peer.id} did not decide (${errorMessage(error)}); waiting for approval/resolve`,
          );
      },
    );
  }

  /**
   * Decides an approval from `approval/resolve`: -32040 when it is unknown, decided, or on another thread or turn (a
   * stale card cannot decide a later approval that reuses its id); -32602 for a decision that was not offered.
   */
  resolve(ref: ApprovalRef, decision: ApprovalDecision): void {
    const approval = this.open.get(ref.requestId);
    if (!approval || approval.params.threadId !== ref.threadId || approval.params.turnId !== ref.turnId) {
      throw RpcError.approvalNotFound(ref.requestId);
    }
    if (!approval.params.choices.includes(decision)) {
      throw new RpcError(
        ErrorCode.InvalidParams,
        `Invalid params for approval/resolve: decision ${decision} is not offered for approval ${ref.requestId}; choose one of ${approval.params.choices.join(', ')}`,
        { requestId: ref.requestId, choices: approval.params.choices },
      );
    }
    this.settle(ref.requestId, decision);
  }

  /** Withdraws every open approval whose params match, with `outcome`. */
  withdraw(outcome: 'cancelled' | 'timeout', match: (params: ApprovalRequestParams) => boolean = () => true): void {
    for (const [requestId, approval] of [...this.open]) if (match(approval.params)) this.settle(requestId, outcome);
  }

  /** Withdraws every open approval of a turn (default `cancelled`). */
  cancelTurn(turnId: string, outcome: 'cancelled' | 'timeout' = 'cancelled'): void {
    this.withdraw(outcome, (params) => params.turnId === turnId);
  }

  /** Withdraws one approval; nothing happens when it is already decided. */
  withdrawById(requestId: string, outcome: 'cancelled' | 'timeout'): void {
    this.settle(requestId, outcome);
  }

  /** Open approvals of a thread, oldest first. */
  forThread(threadId: string): OpenApproval[] {
    return [...this.open.values()].filter((a) => a.params.threadId === threadId);
  }

  /** Forgets a peer that disconnected (its requests are already rejected by its connection). */
  dropPeer(peer: ApprovalPeer): void {
    for (const approval of this.open.values()) approval.asked.delete(peer);
  }

  private settle(requestId: string, outcome: ApprovalOutcome, reason?: string): void {
    const approval = this.open.get(requestId);
    if (!approval) return;
    this.open.delete(requestId);
    for (const controller of approval.asked.values()) controller.abort(new Error(`approval ${requestId} was decided`));
    this.onResolved(approval.params, outcome);
    approval.settle(reason === undefined ? { outcome } : { outcome, reason });
  }
}
