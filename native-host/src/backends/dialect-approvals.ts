/**
 * Open approvals of one adapter: each one is asked of the client as an `approval/request` server request (framed by
 * `approval/requested` and `approval/resolved`), and can be settled by that answer, by `approval/resolve`, or withdrawn
 * by the adapter (interrupt, agent gone). Whatever settles it first wins; the rest is ignored.
 */
import {
  type ApprovalDecision,
  type ApprovalOutcome,
  ApprovalRequestResult,
  type ApprovalSessionScope,
  type ApprovalResolveParams,
  ErrorCode,
  type RequestId,
  RpcError,
  TransportError,
} from '@tether/protocol';
import type { RpcPeer } from './dialect-peer';

/** What to ask the user. */
export interface ApprovalSpec {
  readonly threadId: string;
  readonly turnId: string;
  readonly toolName: string;
  readonly preview: string;
  readonly arguments?: unknown;
  readonly choices: readonly ApprovalDecision[];
  /** How far `allow_session` reaches in the agent (see ApprovalSessionScope); absent: the whole tool. */
  readonly sessionScope?: ApprovalSessionScope;
}

interface OpenApproval {
  readonly spec: ApprovalSpec;
  readonly settle: (outcome: ApprovalOutcome) => void;
  clientRequestId?: RequestId;
}

/** Keeps the open approvals of one adapter and talks to the client about them. */
export class ApprovalBroker {
  private readonly open = new Map<string, OpenApproval>();
  private counter = 0;

  constructor(
    private readonly client: RpcPeer,
    private readonly emit: (method: 'approval/requested' | 'approval/resolved', params: unknown) => void,
    private readonly log: (line: string) => void,
  ) {}

  /** Asks the client; `settle` runs once with the outcome. Returns the Tether request id. */
  ask(spec: ApprovalSpec, settle: (outcome: ApprovalOutcome) => void): string {
    const requestId = `approval_${++this.counter}`;
    const params = {
      threadId: spec.threadId,
      turnId: spec.turnId,
      requestId,
      toolName: spec.toolName,
      preview: spec.preview,
      ...(spec.arguments === undefined ? {} : { arguments: spec.arguments }),
      choices: [...spec.choices],
      ...(spec.sessionScope === undefined ? {} : { sessionScope: spec.sessionScope }),
    };
    const entry: OpenApproval = { spec, settle };
    this.open.set(requestId, entry);
    this.emit('approval/requested', params);
    entry.clientRequestId = this.client.call('approval/request', params, {
      ok: (result) => {
        const parsed = ApprovalRequestResult.safeParse(result);
        if (parsed.success && spec.choices.includes(parsed.data.decision)) this.finish(requestId, parsed.data.decision);
        else {
          // An answer we cannot read must not run the tool: deny is the safe reading.
          this.log(`approval ${requestId}: unreadable or unoffered decision ${JSON.stringify(result)}; denying`);
          this.finish(requestId, 'deny');
        }
      },
      fail: (error) => {
        // A client without a handler (-32601) decides through approval/resolve, so that keeps the approval open; any
        // other error answer decides nothing and would leave the turn hanging, so it denies, as the app-server does.
        if (error instanceof TransportError) this.finish(requestId, 'cancelled');
        else if (error instanceof RpcError && error.code === ErrorCode.MethodNotFound) {
          this.log(`approval ${requestId}: client has no approval/request handler (${error.message}); waiting for approval/resolve`);
        } else {
          this.log(`approval ${requestId}: client answered with an error (${error.message}); denying`);
          this.finish(requestId, 'deny');
        }
      },
    });
    return requestId;
  }

  /** Handles `approval/resolve`; throws -32040 when the approval is unknown or settled, -32602 for an unoffered choice. */
  resolve(params: ApprovalResolveParams): void {
    const entry = this.open.get(params.requestId);
    if (!entry || entry.spec.threadId !== params.threadId) throw RpcError.approvalNotFound(params.requestId);
    if (!entry.spec.choices.includes(params.decision)) {
      throw new RpcError(
        ErrorCode.InvalidParams,
        `Invalid params for approval/resolve: decision ${params.decision} was not offered (choices: ${entry.spec.choices.join(', ')})`,
        { choices: entry.spec.choices },
      );
    }
    this.finish(params.requestId, params.decision);
  }

  /** Withdraws every open approval that matches (all when no predicate). */
  withdraw(outcome: 'cancelled' | 'timeout', match: (spec: ApprovalSpec) => boolean = () => true): void {
    for (const [requestId, entry] of [...this.open]) if (match(entry.spec)) this.finish(requestId, outcome);
  }

  /** Withdraws one approval; no-op when it is already settled. */
  withdrawById(requestId: string, outcome: 'cancelled' | 'timeout'): void {
    this.finish(requestId, outcome);
  }

  /** Number of open approvals (for tests and diagnostics). */
  get size(): number {
    return this.open.size;
  }

  private finish(requestId: string, outcome: ApprovalOutcome): void {
    const entry = this.open.get(requestId);
    if (!entry) return;
    this.open.delete(requestId);
    if (entry.clientRequestId !== undefined) this.client.forget(entry.clientRequestId);
    this.emit('approval/resolved', { threadId: entry.spec.threadId, turnId: entry.spec.turnId, requestId, decision: outcome });
    entry.settle(outcome);
  }
}
