/**
 * The worker's one input layer: every page action is either trusted (CDP through chrome.debugger, performed here at
 * a point the page agent located) or synthetic (the page agent's own events), and this layer decides which, per tab
 * and site, from the user's setting and what the browser allows. The page tools ask `mode` once per action and say
 * the answer in the action's result, so the model always knows whether the page saw a user's input.
 */
import type { KeyChord } from '../../content/keys';
import type { Point } from '../../shared/agent-contract';
import {
  keyListenerProbe,
  type KeyListenerProbe,
  trustedClick,
  trustedDrag,
  trustedDropFiles,
  trustedHover,
  trustedInsertText,
  trustedKey,
  trustedKeys,
  trustedSetFiles,
  type CdpEventWait,
  type MouseButton,
} from './cdp-input';
import { type DebuggerSessions, TrustedInputUnavailable } from './debugger-session';

/** What a trusted action does, at points in the tab's viewport (CSS px). */
export type TrustedStep =
  | { kind: 'click'; point: Point; button: MouseButton; double: boolean }
  | { kind: 'hover'; point: Point }
  | { kind: 'press'; chord: KeyChord }
  /** Keys pressed one after the other without a round trip each (the characters of a text). */
  | { kind: 'keys'; chords: readonly KeyChord[] }
  | { kind: 'text'; text: string }
  | { kind: 'drag'; from: Point; to: Point }
  | { kind: 'files'; selector: string; paths: readonly string[] }
  | { kind: 'drop-files'; point: Point; paths: readonly string[] };

/** How one action's input is made: trusted, or synthetic and why (said in the result). */
export type InputMode = { trusted: true } | { trusted: false; why: string };

/** Whether the user's setting allows trusted input on a site now, and if not, why (in the result's words). */
export type TrustedPolicy = (origin: string, tabId: number) => InputMode;

/** The browser side of the layer: the debugger sessions (absent in Firefox) and CDP events of a tab. */
export interface InputDeps {
  readonly sessions: DebuggerSessions | undefined;
  /** Starts listening for one CDP event of the tab (before the command that causes it is sent). */
  waitEvent(tabId: number, method: string): ReturnType<CdpEventWait>;
  readonly policy: TrustedPolicy;
}

/** Why Firefox (or any browser without chrome.debugger) cannot give trusted input, for the action's result. */
export const NO_DEBUGGER_API =
  'this browser has no debugger API for extensions (Firefox), so CSS :hover, user activation and checks of event.isTrusted see synthetic input';

/** How many documents found to listen for keys are remembered (a bound; forgetting one costs a second look). */
const LISTENING_MAX = 200;

/** The input layer of every tab. */
export class InputLayer {
  /** `tabId:docId` of top documents found to listen for keys. */
  private readonly listening = new Set<string>();

  constructor(private readonly deps: InputDeps) {}

  /** How an action on `tabId`, whose page is on `origin`, is made now. */
  mode(tabId: number, origin: string): InputMode {
    const { sessions } = this.deps;
    if (!sessions) return { trusted: false, why: NO_DEBUGGER_API };
    const allowed = this.deps.policy(origin, tabId);
    if (!allowed.trusted) return allowed;
    const refused = sessions.refusal(tabId);
    return refused ? { trusted: false, why: refused } : { trusted: true };
  }

  /**
   * Attaches (when not attached) so a trusted action can start; rejects with TrustedInputUnavailable, before anything
   * reached the page, when the tab refuses (the caller then acts synthetically and says why).
   */
  async ready(tabId: number): Promise<void> {
    const { sessions } = this.deps;
    if (!sessions) throw new TrustedInputUnavailable(NO_DEBUGGER_API);
    await sessions.ensure(tabId);
  }

  /**
   * Starts finding out whether the page could tell typed keys from text committed at once in its focused field
   * (see keyListenerProbe), for document `doc` of the tab's top frame. A document found to listen is remembered (its
   * listeners seldom go, and keys are right either way), so only documents that did not listen are asked again.
   */
  keyListeners(tabId: number, doc: string): KeyListenerProbe {
    const { sessions } = this.deps;
    const key = `${tabId}:${doc}`;
    if (!sessions || this.listening.has(key)) return { listens: async () => true, release: () => undefined };
    const probe = keyListenerProbe((method, params) => sessions.send(tabId, method, params));
    return {
      listens: async () => {
        const listens = await probe.listens();
        if (this.listening.size >= LISTENING_MAX) this.listening.clear();
        if (listens) this.listening.add(key);
        return listens;
      },
      release: probe.release,
    };
  }

  /** Performs one trusted step; resolves with what the page made of a drag (native HTML5 or pointer-driven). */
  async perform(tabId: number, step: TrustedStep): Promise<{ drag?: 'html5' | 'pointer'; found?: boolean }> {
    const { sessions } = this.deps;
    if (!sessions) throw new TrustedInputUnavailable(NO_DEBUGGER_API);
    const send = (method: string, params?: Record<string, unknown>) => sessions.send(tabId, method, params);
    switch (step.kind) {
      case 'click':
        await trustedClick(send, step.point, step.button, step.double);
        return {};
      case 'hover':
        await trustedHover(send, step.point);
        return {};
      case 'press':
        await trustedKey(send, step.chord);
        return {};
      case 'keys':
        await trustedKeys(send, step.chords);
        return {};
      case 'text':
        await trustedInsertText(send, step.text);
        return {};
      case 'drag':
        return { drag: await trustedDrag(send, (m) => this.deps.waitEvent(tabId, m), step.from, step.to) };
      case 'files':
        return { found: await trustedSetFiles(send, step.selector, step.paths) };
      case 'drop-files':
        await trustedDropFiles(send, step.point, step.paths);
        return {};
    }
  }

  /** A turn of the thread shown in `tabId` ended: stop debugging the tab, and let the next turn try again. */
  turnEnded(tabId: number): Promise<void> {
    return this.deps.sessions?.turnEnded(tabId) ?? Promise.resolve();
  }

  /** Every turn ended (the host connection was lost). */
  endAll(): Promise<void> {
    return this.deps.sessions?.endAll() ?? Promise.resolve();
  }

  /** The tab closed. */
  tabClosed(tabId: number): void {
    for (const key of this.listening) if (key.startsWith(`${tabId}:`)) this.listening.delete(key);
    this.deps.sessions?.tabClosed(tabId);
  }
}

/** A tab's point from a point in a frame's viewport and the offset of that frame's viewport in the tab's. */
export function tabPoint(inFrame: Point, frameOffset: Point): Point {
  return { x: inFrame.x + frameOffset.x, y: inFrame.y + frameOffset.y };
}

/**
 * The offset of a frame's viewport in the tab's: the sum of the content-box offsets of the iframe elements from the
 * frame up to the top, each in its parent's viewport. `chain` lists them innermost first.
 */
export function frameOffsetOf(chain: readonly Point[]): Point {
  return chain.reduce((sum, p) => ({ x: sum.x + p.x, y: sum.y + p.y }), { x: 0, y: 0 });
}
