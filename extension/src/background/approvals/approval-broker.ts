/**
 * The approval broker: every approval (the backend's `approval/request`, and the extension's own gate in front of
 * its page tools) is shown only to the tab whose thread asked and decided by a user action in that tab's side panel
 * or popup. Only page tools (source `client-tool`) can be answered at once, by a site rule or an "allow for this
 * thread" given on the same origin: a `server` approval acts on the user's machine, so nothing a site can steer
 * may approve it. Pending approvals survive a worker restart; a server approval whose request died with an old
 * connection is then answered through `approval/resolve`.
 *
 * A decision acts only for a caller that still waits: a page tool call is tracked from its arrival (`begin`) to its
 * answer, and `withdraw` (the caller cancelled or went away, its turn ended, its backend stopped) drops its card,
 * aborts its signal so nothing runs after, and tells the tab who stopped waiting. A "for this thread" grant covers the
 * caller it was given to: the thread's agent, or one external client on one connection.
 */
import { ErrorCode, RpcError, type ApprovalDecision, type ApprovalSessionScope } from '@tether/protocol';
import { offeredChoices } from '../../shared/approval-choices';
import type { ApprovalChoice, Notice, PendingApproval } from '../../shared/records';
import type { PersistentState, ThreadAllow } from '../views/persistent-state';
import { matchRule, ruleOrigin, withRule } from './site-rules';

/** What is asked: the backend's approval request, or a page tool call the extension gates itself. */
export interface ApprovalAsk {
  readonly source: PendingApproval['source'];
  readonly threadId: string;
  readonly turnId: string;
  readonly requestId: string;
  readonly toolName: string;
  readonly preview: string;
  readonly arguments?: unknown;
  readonly choices: readonly ApprovalDecision[];
  readonly sessionScope?: ApprovalSessionScope;
  /** A page tool's class and risk (client-tool asks): rules and grants are per class, and never cover high risk. */
  readonly page?: PendingApproval['page'];
  /**
   * The origin the decision is about when it is not the tab's page: `page_navigate` names its destination, so a rule
   * for one site never opens another.
   */
  readonly origin?: string;
  /** An external MCP client that made the call (its own name for itself, and its connection). */
  readonly caller?: PendingApproval['caller'];
  /** The call's signal (from `begin`): once aborted, nobody is asked and the answer is `deny`. */
  readonly signal?: AbortSignal;
  /** Called when the user is asked (no rule or grant decided): the worker outlines the element meanwhile. */
  readonly onAsk?: () => void;
}

/** The broker's view of the rest of the worker (injected so it is testable without a browser). */
export interface BrokerDeps {
  readonly state: PersistentState;
  /** The tab whose panel shows the thread; approvals go nowhere else. */
  tabForThread(threadId: string): number | undefined;
  /** The URL of a tab's page, if it still exists. */
  tabUrl(tabId: number): Promise<string | undefined>;
  /** The tab's pending approvals changed (update its badge and views). */
  onChange(tabId: number): void;
  /** Tell the tab's views something (a rule decided). */
  onNotice(tabId: number, notice: Notice): void;
  /** Answers a server approval whose original request is gone (worker restarted): `approval/resolve`. */
  resolveRemote(approval: PendingApproval, decision: ApprovalDecision): Promise<void>;
  now(): number;
  newId(): string;
}

/** Thrown when a decision cannot be applied: not pending, wrong tab, or a choice the request does not offer. */
export class ApprovalDecisionError extends Error {
  override readonly name = 'ApprovalDecisionError';
}

/** Label used as the origin of pages that have none a rule could name (chrome://, file:, about:blank). */
export const NO_SITE = '(no site)';

/** Why a caller stopped waiting: it cancelled the call, its connection closed, its turn ended, its backend stopped. */
export type StopReason = 'cancelled' | 'disconnected' | 'turn-ended' | 'backend-stopped';

/** Which approvals and calls a withdrawal covers: every field given must match; `external: false` is the agents' own. */
export interface WithdrawMatch {
  readonly threadId?: string;
  readonly turnId?: string;
  readonly requestId?: string;
  readonly external?: boolean;
  readonly source?: PendingApproval['source'];
}

/** A page tool call from its arrival to its answer. */
export interface TrackedCall {
  /** Aborted, with the StopReason as its reason, when the caller stops waiting. */
  readonly signal: AbortSignal;
  /** The call was answered (or abandoned): stop tracking it. */
  end(): void;
}

interface Running {
  readonly threadId: string;
  readonly turnId: string;
  readonly requestId: string;
  readonly external: boolean;
  readonly controller: AbortController;
}

/** Withdrawals of calls not seen yet remembered at most (a cancellation can overtake its request in one batch). */
const EARLY_WITHDRAWALS = 256;
/** How long such a withdrawal waits for its call: the two arrive in one host batch, or one right after the other. */
const EARLY_WITHDRAWAL_MS = 10_000;

/** Who stopped waiting, in the extension's words. */
export function whoWaited(caller: PendingApproval['caller']): string {
  return caller ? `${caller.name} (its own name for itself)` : 'The agent';
}

const STOP_REASONS: readonly StopReason[] = ['cancelled', 'disconnected', 'turn-ended', 'backend-stopped'];

/** Why a tracked call's signal was aborted (`begin`), `cancelled` when it does not say. */
export function stopReasonOf(signal: AbortSignal): StopReason {
  return STOP_REASONS.find((r) => r === signal.reason) ?? 'cancelled';
}

/** Why, in the extension's words. */
export function stopReasonText(reason: StopReason): string {
  switch (reason) {
    case 'cancelled':
      return 'it cancelled the call';
    case 'disconnected':
      return 'it disconnected';
    case 'turn-ended':
      return 'its turn ended';
    case 'backend-stopped':
      return 'it stopped running';
  }
}

/** Whether a "for this thread" grant was given to this caller: the thread's agent, or the same client connection. */
function grantedTo(allow: ThreadAllow, caller: PendingApproval['caller']): boolean {
  if (!allow.caller || !caller) return !allow.caller && !caller;
  return allow.caller.connection === caller.connection && allow.caller.name === caller.name;
}

function matches(match: WithdrawMatch, c: { threadId: string; turnId: string; requestId: string }, external: boolean) {
  return (
    (match.threadId === undefined || c.threadId === match.threadId) &&
    (match.turnId === undefined || c.turnId === match.turnId) &&
    (match.requestId === undefined || c.requestId === match.requestId) &&
    (match.external === undefined || external === match.external)
  );
}

/** Routes approvals to tabs, applies site rules, and turns user choices into protocol decisions. */
export class ApprovalBroker {
  private readonly waiters = new Map<string, (decision: ApprovalDecision) => void>();
  /** Page tool calls being asked about or run, by approval key. */
  private readonly running = new Map<string, Running>();
  /** Keys of calls withdrawn before they began, oldest first. */
  private readonly early = new Map<string, { why: StopReason; atMs: number }>();

  constructor(private readonly deps: BrokerDeps) {}

  /** Asks for a decision; resolves when a rule or the user decides, or with `deny` when no tab shows the thread. */
  async ask(req: ApprovalAsk): Promise<ApprovalDecision> {
    const { state } = this.deps;
    const tabId = this.deps.tabForThread(req.threadId);
    if (tabId === undefined || req.signal?.aborted) return 'deny';
    const origin = ruleOrigin(req.origin ?? (await this.deps.tabUrl(tabId))) ?? NO_SITE;
    if (req.signal?.aborted) return 'deny';
    const page = req.source === 'client-tool' ? req.page : undefined;
    if (page && origin !== NO_SITE) {
      const rule = matchRule(state.rules(), origin, page.toolClass);
      const highRisk = page.highRisk.length > 0;
      const allowedForThread = state
        .threadAllows(req.threadId)
        .some((a) => a.toolClass === page.toolClass && a.origin === origin && grantedTo(a, req.caller));
      // Both cover this origin only; the user's "always deny on this site" wins over an earlier thread grant, and a
      // high-risk action is denied by a deny rule but never allowed by a remembered choice.
      if (allowedForThread && rule?.decision !== 'deny' && !highRisk) return 'allow';
      if (rule && (rule.decision === 'deny' || !highRisk)) {
        this.deps.onNotice(tabId, { kind: 'rule-decided', rule, toolName: req.toolName, threadId: req.threadId });
        return rule.decision;
      }
    }
    const pending: PendingApproval = {
      key:
        req.source === 'client-tool'
          ? clientToolKey(req.threadId, req.requestId)
          : `server:${req.threadId}:${req.requestId}`,
      source: req.source,
      threadId: req.threadId,
      turnId: req.turnId,
      requestId: req.requestId,
      tabId,
      origin,
      toolName: req.toolName,
      preview: req.preview,
      ...(req.arguments === undefined ? {} : { arguments: req.arguments }),
      choices: [...req.choices],
      ...(req.sessionScope === undefined ? {} : { sessionScope: req.sessionScope }),
      ...(page === undefined ? {} : { page }),
      ...(req.caller === undefined ? {} : { caller: req.caller }),
      createdAtMs: this.deps.now(),
    };
    const decided = new Promise<ApprovalDecision>((resolve) => this.waiters.set(pending.key, resolve));
    await state.updatePending([pending]);
    req.onAsk?.();
    this.deps.onChange(tabId);
    return decided;
  }

  /** Applies a user's choice made in a page of tab `fromTabId`. */
  async decide(key: string, choice: ApprovalChoice, fromTabId: number | null): Promise<ApprovalDecision> {
    const { state } = this.deps;
    const p = state.pendingApprovals().find((a) => a.key === key);
    if (!p)
      throw new ApprovalDecisionError('This approval is no longer pending (it was answered, withdrawn or expired).');
    if (fromTabId !== p.tabId)
      throw new ApprovalDecisionError('An approval can only be decided from the tab that asked for it.');
    const decision = await this.applyChoice(p, choice);
    if (!this.waiters.has(key) && p.source === 'server') {
      // Answer the server before forgetting the approval: if the host cannot be reached now (reconnecting), the
      // approval stays pending and the user can decide again, unless the server says it no longer waits for it.
      try {
        await this.deps.resolveRemote(p, decision);
      } catch (error) {
        if (error instanceof RpcError && error.code === ErrorCode.ApprovalNotFound) await this.drop([p]);
        throw error;
      }
    }
    await state.updatePending([], [key]);
    this.deps.onChange(p.tabId);
    const waiter = this.waiters.get(key);
    this.waiters.delete(key);
    waiter?.(decision);
    return decision;
  }

  /** Tracks a page tool call (an `item/tool/call`) until `end`, so that `withdraw` can stop it. */
  begin(call: { threadId: string; turnId: string; requestId: string; external: boolean }): TrackedCall {
    const key = clientToolKey(call.threadId, call.requestId);
    const controller = new AbortController();
    const early = this.early.get(key);
    this.early.delete(key);
    // Only a withdrawal that just overtook its call counts: call ids start again with a new host or backend.
    if (early && this.deps.now() - early.atMs <= EARLY_WITHDRAWAL_MS) controller.abort(early.why);
    else this.running.set(key, { ...call, controller });
    return {
      signal: controller.signal,
      end: () => {
        if (this.running.get(key)?.controller === controller) this.running.delete(key);
      },
    };
  }

  /**
   * Drops approvals the server resolved or withdrew (`approval/resolved`), or those of a finished turn. With `why`,
   * the caller stopped waiting: matching page tool calls are stopped too (even one already decided, so its result is
   * not reported as delivered), the tab is told, and an exact withdrawal of a call not seen yet stops it on arrival.
   */
  async withdraw(match: WithdrawMatch, why?: StopReason): Promise<void> {
    const gone = this.deps.state
      .pendingApprovals()
      .filter((p) => matches(match, p, p.caller !== undefined) && (match.source ?? p.source) === p.source);
    if (why) {
      let found = gone.some((p) => p.source === 'client-tool');
      for (const [key, call] of this.running) {
        if (!matches(match, call, call.external)) continue;
        found = true;
        this.running.delete(key);
        call.controller.abort(why);
      }
      if (!found && match.threadId !== undefined && match.requestId !== undefined) {
        this.early.set(clientToolKey(match.threadId, match.requestId), { why, atMs: this.deps.now() });
        if (this.early.size > EARLY_WITHDRAWALS) this.early.delete(this.early.keys().next().value!);
      }
      for (const p of gone) {
        if (p.source !== 'client-tool') continue;
        const summary = `${whoWaited(p.caller)} stopped waiting for ${p.toolName} (${stopReasonText(why)}): its approval was withdrawn and nothing was done.`;
        this.deps.onNotice(p.tabId, { kind: 'call-withdrawn', toolName: p.toolName, threadId: p.threadId, summary });
      }
    }
    await this.drop(gone);
  }

  /**
   * The tab closed: nobody can decide its approvals any more, so they are denied. A server approval whose request
   * died with an old worker is denied through `approval/resolve`, or the backend would wait for it forever.
   */
  async tabClosed(tabId: number): Promise<void> {
    const gone = this.pendingForTab(tabId);
    for (const p of gone) {
      if (this.waiters.has(p.key) || p.source !== 'server') continue;
      await this.deps.resolveRemote(p, 'deny').catch(() => {
        // Unreachable or already resolved: either way the server is not left waiting on this tab.
      });
    }
    await this.drop(gone);
  }

  /** The connection these requests came on is gone: client-tool calls died with it; server ones can still be resolved. */
  async forgetConnection(): Promise<void> {
    for (const call of this.running.values()) call.controller.abort('disconnected' satisfies StopReason);
    this.running.clear();
    this.early.clear();
    await this.drop(this.deps.state.pendingApprovals().filter((p) => p.source === 'client-tool'));
    for (const [key, waiter] of this.waiters) {
      this.waiters.delete(key);
      waiter('deny');
    }
  }

  /** Pending approvals of one tab, oldest first. */
  pendingForTab(tabId: number): PendingApproval[] {
    return this.deps.state
      .pendingApprovals()
      .filter((p) => p.tabId === tabId)
      .sort((a, b) => a.createdAtMs - b.createdAtMs);
  }

  private async drop(gone: PendingApproval[]): Promise<void> {
    if (gone.length === 0) return;
    await this.deps.state.updatePending(
      [],
      gone.map((p) => p.key),
    );
    for (const p of gone) {
      const waiter = this.waiters.get(p.key);
      this.waiters.delete(p.key);
      // The server no longer waits for this answer; settle our side so nothing leaks.
      waiter?.('deny');
    }
    for (const tab of new Set(gone.map((p) => p.tabId))) this.deps.onChange(tab);
  }

  private async applyChoice(p: PendingApproval, choice: ApprovalChoice): Promise<ApprovalDecision> {
    const { state } = this.deps;
    // The card offers only these; anything else came from a stale or forged page message.
    if (!offeredChoices(p).includes(choice)) throw new ApprovalDecisionError(refusal(p, choice));
    switch (choice) {
      case 'allow':
      case 'deny':
        return choice;
      case 'allow_session':
        if (p.source === 'client-tool' && p.page) {
          const caller = p.caller?.connection ? { name: p.caller.name, connection: p.caller.connection } : undefined;
          if (p.caller && !caller) throw new ApprovalDecisionError(refusal(p, choice));
          await state.addThreadAllow(p.threadId, {
            toolClass: p.page.toolClass,
            origin: p.origin,
            ...(caller ? { caller } : {}),
          });
        }
        return 'allow_session';
      case 'always_allow_site':
      case 'always_deny_site': {
        const decision = choice === 'always_allow_site' ? 'allow' : 'deny';
        if (!p.page) throw new ApprovalDecisionError(refusal(p, choice));
        await state.setRules(
          withRule(
            state.rules(),
            { origin: p.origin, toolClass: p.page.toolClass, decision },
            this.deps.now(),
            this.deps.newId,
          ),
        );
        return decision;
      }
    }
  }
}

/** The key of a page tool call's approval (and of the call while it is tracked). */
function clientToolKey(threadId: string, requestId: string): string {
  return `client-tool:${threadId}:${requestId}`;
}

/** Why `choice` is not offered for `p`, in words that say what the user can do instead. */
function refusal(p: PendingApproval, choice: ApprovalChoice): string {
  const site = choice === 'always_allow_site' || choice === 'always_deny_site';
  if (p.source === 'server' && site) {
    const thread = p.choices.includes('allow_session') ? ', allow it for this thread,' : '';
    return `"${p.toolName}" acts on your computer, not on a site, so no site rule can cover it: allow it once${thread} or deny it.`;
  }
  if (p.caller && site)
    return `A site rule covers every agent and client, so ${p.caller.name}'s card cannot set one: allow it once, for ${p.caller.name} only, or deny it.`;
  if (p.caller && choice === 'allow_session' && !p.caller.connection)
    return `${p.caller.name} did not say which connection it calls on, so nothing can be remembered for it: allow it once instead.`;
  if (p.origin === NO_SITE) {
    return site
      ? 'This page has no web origin, so no site rule can cover it.'
      : 'This page has no web origin, so a grant for the thread could not be limited to it: allow it once instead.';
  }
  if (choice === 'allow_session')
    return `"${p.toolName}" cannot be allowed for the whole thread; allow it once instead.`;
  return `"${p.toolName}" cannot be allowed here; deny it or ask again.`;
}
