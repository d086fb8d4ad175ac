/**
 * The page agent: injected by the worker into each frame of the bound tab
 * (`chrome.scripting.executeScript({files, target: {tabId, frameIds}})`, isolated world, Chrome and Firefox), it
 * installs one object the worker then calls: `executeScript({func: (c) => globalThis.__tetherPageAgent.call(c),
 * args: [call]})`. Injecting it again keeps the installed agent (and its refs) unless the version changed. A new
 * document gets a new isolated world, so a new agent with a fresh ref table.
 *
 * It reads the page (snapshot, find, describe), outlines an element (highlight), acts by ref and waits for text.
 * It imports only types from the contract: no schema library in pages, no eval, no page-visible globals (the
 * isolated world's globalThis is not the page's), and no change to the page's DOM but the highlight overlay.
 */
import { type ActionOutput, type ActionReport, prepareAction } from './act';
import type {
  ActResult,
  AgentAction,
  AgentCall,
  DialogPolicy,
  DescribeResult,
  FindResult,
  FrameSnapshot,
  LocateResult,
  PageAgent,
  StaleRef,
  WaitResult,
  WatchResult,
} from '../shared/agent-contract';
import { isInvisible, isNotRendered } from './dom';
import { movesEditorCaret } from './editing';
import { FocusClock } from './focus-clock';
import { Highlighter } from './highlight';
import { ActionError, describeEl } from './input';
import { type KeyChord, parseKey } from './keys';
import { syntheticLimits } from './limits';
import { AimError, aimAt, frameOrigin } from './pointing';
import { changedLines, findInFrame, readElement, ShadowRootSet, snapshotFrame } from './read-ops';
import { RefTable, staleMessage, staleRef } from './refs';
import { describeElement } from './risk';
import { type ActionWatch, watchAction } from './settle';
import { deepActiveElement, Walker } from './snapshot';
import { waitForText } from './wait';

/** agent-contract's AGENT_GLOBAL and AGENT_VERSION (a test checks they agree); that module imports zod. */
const AGENT_GLOBAL = '__tetherPageAgent';
const AGENT_VERSION = 3;
/** agent-contract's TARGET_MARK (a test checks they agree). */
const TARGET_MARK = 'data-tether-target';

const QUIET_MAX_MS = 5_000;
const CAP_MAX_MS = 15_000;

function clampMs(value: number, max: number): number {
  return Number.isFinite(value) ? Math.min(max, Math.max(0, value)) : max;
}

function failed(error: string, stale = false): ActResult {
  return {
    error,
    ...(stale ? { stale: true } : {}),
    unloading: false,
    changed: [],
    dialogs: [],
    errors: [],
    settledMs: 0,
  };
}

/** `locate`: the element scrolled into view, its facts, the point a user would click and what covers it. */
function locate(el: Element | undefined, ref: string): LocateResult {
  if (!el) return staleRef(ref);
  if (isNotRendered(el) || isInvisible(el)) return { stale: false, error: `${describeEl(el)} is hidden.` };
  try {
    const aim = aimAt(el);
    const frame = frameOrigin(el);
    return {
      stale: false,
      facts: describeElement(el),
      point: aim.point,
      ...(aim.covered ? { covered: aim.covered } : {}),
      ...(frame ? { frame } : {}),
    };
  } catch (error) {
    if (error instanceof AimError)
      return { stale: false, error: `${describeEl(el)} cannot be pointed at: ${error.message}.` };
    throw error;
  }
}

/** A watch over the page while an action runs, with the target and its state before. */
interface Watching {
  readonly watch: ActionWatch;
  readonly el: Element | undefined;
  readonly before: string;
}

/** The agent of one document. */
class Agent implements PageAgent {
  readonly version = AGENT_VERSION;
  private refs = new RefTable('');
  private readonly shadows = new ShadowRootSet();
  private readonly highlighter = new Highlighter();
  private readonly focusClock = new FocusClock(document);
  /** The watch `watch` started for a trusted action, until `settle` reports it. */
  private watching: Watching | undefined;
  /** Actions run one after another: two at once would share the shim's in-flight state and each other's mutations. */
  private queue: Promise<unknown> = Promise.resolve();

  call(call: AgentCall): unknown {
    switch (call.op) {
      case 'snapshot':
        this.usePrefix(call.prefix);
        return snapshotFrame(this.refs, this.shadows, call.from, call.maxChars) satisfies FrameSnapshot | StaleRef;
      case 'find':
        this.usePrefix(call.prefix);
        return findInFrame(this.refs, this.shadows, call.text, call.max) satisfies FindResult;
      case 'describe': {
        const el = this.refs.resolve(call.ref);
        const reply: DescribeResult = el ? { stale: false, element: describeElement(el) } : staleRef(call.ref);
        return reply;
      }
      case 'highlight':
        return this.highlight(call.ref, call.label);
      case 'act': {
        const run = this.queue.then(() => this.act(call));
        this.queue = run.catch(() => undefined);
        return run;
      }
      case 'locate':
        return locate(this.refs.resolve(call.ref), call.ref);
      case 'watch': {
        const run = this.queue.then(() => this.watch(call));
        this.queue = run.catch(() => undefined);
        return run;
      }
      case 'settle': {
        const run = this.queue.then(() => this.settleWatch(call));
        this.queue = run.catch(() => undefined);
        return run;
      }
      case 'mark':
        return this.mark(call);
      case 'read':
        return readElement(this.refs, call.ref, call.maxChars);
      case 'wait':
        return waitForText(call.text, call.textGone, call.timeoutMs, this.shadows.live()) satisfies Promise<WaitResult>;
      default:
        throw new Error(`The page agent has no call ${JSON.stringify((call as { op?: unknown }).op)}.`);
    }
  }

  /** A frame's refs carry its prefix; another prefix means another numbering, so the table starts again. */
  private usePrefix(prefix: string): void {
    if (prefix !== this.refs.prefix) this.refs = new RefTable(prefix);
  }

  private highlight(ref: string | null, label: string | undefined): StaleRef | { stale: false } {
    if (ref === null) {
      this.highlighter.hide();
      return { stale: false };
    }
    const el = this.refs.resolve(ref);
    if (!el) return staleRef(ref);
    this.highlighter.show(el, label);
    return { stale: false };
  }

  private async act(call: Extract<AgentCall, { op: 'act' }>): Promise<ActResult> {
    this.usePrefix(call.prefix);
    this.endWatch();
    let el: Element | undefined;
    if (call.ref !== undefined) {
      el = this.refs.resolve(call.ref);
      if (!el) return failed(staleMessage(call.ref), true);
    }
    let run: () => ActionOutput | Promise<ActionOutput>;
    try {
      run = prepareAction(call.action, el, {
        ...(call.clipboard !== undefined ? { clipboard: call.clipboard } : {}),
        resolve: (ref) => this.refs.resolve(ref),
        focusClock: this.focusClock,
      });
    } catch (error) {
      if (error instanceof ActionError) return failed(error.message);
      throw error;
    }
    const watching = this.begin(el, call);
    let output: ActionReport & { error?: string } = {};
    try {
      output = (await run()) ?? {};
    } catch (thrown) {
      output = { error: thrown instanceof Error ? thrown.message : String(thrown) };
    }
    return this.finish(watching, call.quietMs, call.capMs, { action: call.action, ...output });
  }

  /**
   * `watch`: the worker is about to act with trusted input; what it changes is reported by `settle`. With `aim`, the
   * element is located first (scrolled into view, before the watch, as `locate` then `watch` would) and a watch
   * starts only for an element a user can point at without hitting a cover.
   */
  private async watch(call: Extract<AgentCall, { op: 'watch' }>): Promise<WatchResult> {
    this.usePrefix(call.prefix);
    let el: Element | undefined;
    if (call.ref !== undefined) {
      el = this.refs.resolve(call.ref);
      if (!el) return staleRef(call.ref);
    }
    this.endWatch();
    const aim = call.aim && call.ref !== undefined ? locate(el, call.ref) : undefined;
    if (aim && (!('point' in aim) || (aim.covered && !call.aim?.coverOk)))
      return { stale: false, watching: false, aim };
    this.watching = this.begin(el, { ...call, trustedInput: true });
    // Focusing here spares the worker finding the element through CDP (a whole-document walk and four more round
    // trips); the focus events and caret are the browser's own either way, and what focus starts is watched.
    if (call.focus && el instanceof HTMLElement) el.focus();
    if (call.key !== undefined) await this.paceKey(call.key, el);
    return { stale: false, watching: true, ...(aim ? { aim } : {}) };
  }

  /** Waits, as `act`'s press does, while `key` would move the caret of an editor focus has only just reached. */
  private async paceKey(key: string, el: Element | undefined): Promise<void> {
    let chord: KeyChord;
    try {
      chord = parseKey(key);
    } catch {
      return; // The worker parsed it before asking; a key it could not parse is refused there.
    }
    const target = el ?? deepActiveElement() ?? document.body;
    if (movesEditorCaret(target, chord)) await this.focusClock.settled(target);
  }

  /** Ends a watch nobody settled (its action failed before `settle`), so it cannot report into the next action. */
  private endWatch(): void {
    this.watching?.watch.settle(0, 0).catch(() => undefined);
    this.watching = undefined;
  }

  private async settleWatch(call: Extract<AgentCall, { op: 'settle' }>): Promise<ActResult> {
    const watching = this.watching;
    this.watching = undefined;
    if (!watching) return failed('No trusted action was being watched in this document (call watch before acting).');
    return this.finish(watching, call.quietMs, call.capMs, {});
  }

  private mark(call: Extract<AgentCall, { op: 'mark' }>): StaleRef | { stale: false } {
    const el = this.refs.resolve(call.ref);
    if (!el) return staleRef(call.ref);
    if (call.token === null) el.removeAttribute(TARGET_MARK);
    else el.setAttribute(TARGET_MARK, call.token);
    return { stale: false };
  }

  private begin(
    el: Element | undefined,
    opts: { channel?: string; dialog?: DialogPolicy; trustedInput?: boolean },
  ): Watching {
    const watch = watchAction({
      ...(opts.channel ? { channel: opts.channel } : {}),
      ...(opts.dialog ? { dialog: opts.dialog } : {}),
      ...(opts.trustedInput ? { trustedInput: true } : {}),
      shadowRoots: this.shadows.live(),
      ignore: this.highlighter.node,
    });
    return { watch, el, before: this.stateOf(el) };
  }

  /** The target's line and the focus, to tell a click that changed only a property (a checkbox) from one that did nothing. */
  private stateOf(el: Element | undefined): string {
    const walker = new Walker(this.refs);
    const active = deepActiveElement();
    return `${el?.isConnected ? walker.lineOf(el) : ''}\n${active ? walker.lineOf(active) : ''}`;
  }

  private async finish(
    { watch, el, before }: Watching,
    quietMs: number,
    capMs: number,
    done: ActionReport & { action?: AgentAction; error?: string },
  ): Promise<ActResult> {
    const settled = await watch.settle(clampMs(quietMs, QUIET_MAX_MS), clampMs(capMs, CAP_MAX_MS));
    const changed = settled.unloading ? [] : changedLines(this.refs, this.shadows, settled.mutated, el);
    const active = settled.unloading ? null : deepActiveElement();
    const focus = active && active !== document.body ? `- ${new Walker(this.refs).lineOf(active)}` : undefined;
    const quiet =
      !done.error &&
      !settled.unloading &&
      settled.mutated.size === 0 &&
      settled.dialogs.length === 0 &&
      this.stateOf(el) === before;
    const limits = done.action
      ? syntheticLimits(done.action, el, { nothingChanged: quiet, copied: done.copied !== undefined })
      : [];
    return {
      ...(done.error ? { error: done.error } : {}),
      unloading: settled.unloading,
      changed,
      ...(focus ? { focus } : {}),
      dialogs: settled.dialogs,
      errors: settled.errors,
      settledMs: settled.settledMs,
      ...(limits.length > 0 || done.limits ? { limits: [...(done.limits ?? []), ...limits] } : {}),
      ...(done.copied !== undefined ? { copied: done.copied } : {}),
    };
  }
}

const existing = (globalThis as Record<string, unknown>)[AGENT_GLOBAL] as Partial<PageAgent> | undefined;
if (existing?.version !== AGENT_VERSION) {
  Object.defineProperty(globalThis, AGENT_GLOBAL, {
    value: new Agent(),
    configurable: true,
    enumerable: false,
    writable: false,
  });
}
