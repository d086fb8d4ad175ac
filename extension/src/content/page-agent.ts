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
import { prepareAction } from './act';
import type {
  ActResult,
  AgentCall,
  DescribeResult,
  FindResult,
  FrameSnapshot,
  PageAgent,
  StaleRef,
  WaitResult,
} from '../shared/agent-contract';
import { Highlighter } from './highlight';
import { ActionError } from './input';
import { changedLines, findInFrame, ShadowRootSet, snapshotFrame } from './read-ops';
import { RefTable, staleMessage, staleRef } from './refs';
import { describeElement } from './risk';
import { watchAction } from './settle';
import { deepActiveElement, Walker } from './snapshot';
import { waitForText } from './wait';

/** agent-contract's AGENT_GLOBAL and AGENT_VERSION (a test checks they agree); that module imports zod. */
const AGENT_GLOBAL = '__tetherPageAgent';
const AGENT_VERSION = 2;

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

/** The agent of one document. */
class Agent implements PageAgent {
  readonly version = AGENT_VERSION;
  private refs = new RefTable('');
  private readonly shadows = new ShadowRootSet();
  private readonly highlighter = new Highlighter();
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
    let el: Element | undefined;
    if (call.ref !== undefined) {
      el = this.refs.resolve(call.ref);
      if (!el) return failed(staleMessage(call.ref), true);
    }
    let run: () => void;
    try {
      run = prepareAction(call.action, el);
    } catch (error) {
      if (error instanceof ActionError) return failed(error.message);
      throw error;
    }
    const watch = watchAction({
      ...(call.channel ? { channel: call.channel } : {}),
      ...(call.dialog ? { dialog: call.dialog } : {}),
      shadowRoots: this.shadows.live(),
      ignore: this.highlighter.node,
    });
    let error: string | undefined;
    try {
      run();
    } catch (thrown) {
      error = thrown instanceof Error ? thrown.message : String(thrown);
    }
    const settled = await watch.settle(clampMs(call.quietMs, QUIET_MAX_MS), clampMs(call.capMs, CAP_MAX_MS));
    const changed = settled.unloading ? [] : changedLines(this.refs, this.shadows, settled.mutated, el);
    const active = settled.unloading ? null : deepActiveElement();
    const focus = active && active !== document.body ? `- ${new Walker(this.refs).lineOf(active)}` : undefined;
    return {
      ...(error ? { error } : {}),
      unloading: settled.unloading,
      changed,
      ...(focus ? { focus } : {}),
      dialogs: settled.dialogs,
      errors: settled.errors,
      settledMs: settled.settledMs,
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
