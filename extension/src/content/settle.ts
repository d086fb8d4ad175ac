/**
 * Watching the page while an action runs: which nodes mutated, whether the document began to unload, the dialogs,
 * errors and requests the main-world shim reports, and when the page has been quiet long enough to answer. Settled
 * means no mutation and no request of the action's in flight for `quietMs`, or `capMs` at most, or at once when the
 * document starts unloading (the worker then waits for the new page on its side). An action that started nothing (no
 * mutation, request, timer, dialog or error within `START_WINDOW_MS`, seen with the main-world shim's help) is settled
 * then, without waiting out the quiet window: a click on a checkbox or a key in a field answers at once. For trusted
 * input (made by the browser, with `settle` called a round trip after the page handled it) the start window and the
 * quiet window count from the last input event the page saw, so that round trip is not waited a second time.
 */
import type { DialogPolicy, DialogReport } from '../shared/agent-contract';
import type { ShimMessage } from './dialog-shim';

/** What the page did during an action. */
export interface Settled {
  readonly unloading: boolean;
  readonly mutated: Set<Node>;
  readonly dialogs: DialogReport[];
  readonly errors: string[];
  readonly settledMs: number;
}

/** At most this many mutated nodes are kept (enough to find their common region). */
const MUTATED_MAX = 2000;
const ERRORS_MAX = 5;
const DIALOGS_MAX = 5;
/**
 * How long after an action the page may take to show that it started something: handlers run synchronously, and
 * renders scheduled in a microtask or a message task (React's scheduler) land within a few ms; timers and animation
 * frames are reported by the shim when they are set. Two frames' worth covers a busy renderer.
 */
export const START_WINDOW_MS = 30;
/** A timer due within this long of the action (at most the quiet window) is work the action started. */
const TIMER_DUE_MAX_MS = 1_000;
/**
 * The events a user's input makes (pointer, mouse, keys, text, drops): the last one seen is when trusted input ended.
 * Not `change` or focus events, which the agent's own focusing fires as the watch begins.
 */
const INPUT_EVENTS = [
  'pointermove',
  'pointerdown',
  'pointerup',
  'mousedown',
  'mouseup',
  'click',
  'auxclick',
  'dblclick',
  'contextmenu',
  'keydown',
  'keyup',
  'beforeinput',
  'input',
  'drop',
  'dragend',
] as const;

/**
 * When the action ended, for its windows: the last trusted input event the page saw during a watch of trusted input
 * (settle is called only once the browser answered that all of it was handled), else when settle was called.
 */
export function actionEnd(settleCalled: number, lastInput: number | undefined): number {
  return lastInput !== undefined && lastInput <= settleCalled ? lastInput : settleCalled;
}

/** Options of watchAction. */
export interface WatchOptions {
  /** The shim's channel; without it dialogs and main-world errors are not seen. */
  readonly channel?: string;
  readonly dialog?: DialogPolicy;
  /** Shadow roots to observe besides the document (mutation observers do not cross into them). */
  readonly shadowRoots: readonly ShadowRoot[];
  /** A node of the agent's own (the highlight) whose changes are not the page's. */
  readonly ignore?: Node | null;
  /** The browser makes the action's input (chrome.debugger): its windows count from the last input event seen. */
  readonly trustedInput?: boolean;
}

/** An action under watch: `settle` resolves once the page is quiet and stops watching. */
export interface ActionWatch {
  settle(quietMs: number, capMs: number): Promise<Settled>;
}

function isShimMessage(value: unknown): value is ShimMessage {
  return typeof value === 'object' && value !== null && typeof (value as { t?: unknown }).t === 'string';
}

/** Starts watching before an action; tells the shim an action is in flight. */
export function watchAction(options: WatchOptions): ActionWatch {
  const started = performance.now();
  const mutated = new Set<Node>();
  const dialogs: DialogReport[] = [];
  const errors: string[] = [];
  let lastActivity = started;
  /** Whether the page did anything since the watch began that the quiet window should wait out. */
  let active = false;
  let pending = 0;
  let unloading = false;
  let wake: (() => void) | undefined;
  let lastInput: number | undefined;
  const onInput = (event: Event): void => {
    if (event.isTrusted) lastInput = performance.now();
  };
  const inputListening = { capture: true, passive: true };
  if (options.trustedInput) for (const type of INPUT_EVENTS) window.addEventListener(type, onInput, inputListening);

  const addError = (message: string): void => {
    active = true;
    if (errors.length < ERRORS_MAX && !errors.includes(message)) errors.push(message);
  };
  const collect = (records: MutationRecord[]): void => {
    for (const record of records) {
      const target = record.target;
      if (
        options.ignore &&
        (target === options.ignore ||
          record.addedNodes[0] === options.ignore ||
          record.removedNodes[0] === options.ignore)
      ) {
        continue;
      }
      if (mutated.size < MUTATED_MAX)
        mutated.add(target.nodeType === Node.TEXT_NODE ? (target.parentNode ?? target) : target);
      lastActivity = performance.now();
      active = true;
    }
  };
  const observer = new MutationObserver(collect);
  const observe = { subtree: true, childList: true, attributes: true, characterData: true };
  observer.observe(document, observe);
  for (const root of options.shadowRoots) observer.observe(root, observe);

  const onUnload = (): void => {
    unloading = true;
    wake?.();
  };
  const onNavigate = (event: Event): void => {
    const destination = (event as Event & { destination?: { sameDocument?: boolean } }).destination;
    if (destination?.sameDocument === false) onUnload();
  };
  const onError = (event: Event): void => {
    if (event instanceof ErrorEvent) addError(event.message);
  };
  const onChannel = (event: Event): void => {
    let message: unknown;
    try {
      message = JSON.parse(String((event as CustomEvent).detail));
    } catch {
      return;
    }
    if (!isShimMessage(message)) return;
    if (message.t === 'dialog') active = true;
    if (message.t === 'dialog' && dialogs.length < DIALOGS_MAX) {
      dialogs.push({ type: message.type, message: String(message.message), accepted: message.accepted === true });
    } else if (message.t === 'error') addError(String(message.message));
    else if (message.t === 'net') {
      pending = Math.max(0, pending + (message.d === 1 ? 1 : -1));
      lastActivity = performance.now();
      active = true;
    } else if (message.t === 'timer' && message.ms <= TIMER_DUE_MAX_MS) active = true;
  };
  const navigation = (globalThis as { navigation?: EventTarget }).navigation;
  window.addEventListener('beforeunload', onUnload);
  window.addEventListener('pagehide', onUnload);
  window.addEventListener('error', onError);
  navigation?.addEventListener('navigate', onNavigate);
  const send = (message: ShimMessage): void => {
    if (options.channel) document.dispatchEvent(new CustomEvent(options.channel, { detail: JSON.stringify(message) }));
  };
  if (options.channel) {
    document.addEventListener(options.channel, onChannel);
    send({
      t: 'begin',
      accept: options.dialog?.accept === true,
      ...(options.dialog?.promptText !== undefined ? { promptText: options.dialog.promptText } : {}),
    });
  }

  const stop = (): void => {
    observer.disconnect();
    window.removeEventListener('beforeunload', onUnload);
    window.removeEventListener('pagehide', onUnload);
    window.removeEventListener('error', onError);
    navigation?.removeEventListener('navigate', onNavigate);
    if (options.trustedInput)
      for (const type of INPUT_EVENTS) window.removeEventListener(type, onInput, inputListening);
    send({ t: 'end' });
    if (options.channel) document.removeEventListener(options.channel, onChannel);
  };

  return {
    settle(quietMs, capMs) {
      // Mutations made by the action itself are queued as microtasks: collect them before judging quiet.
      const actionEnded = actionEnd(performance.now(), lastInput);
      lastActivity = Math.max(lastActivity, actionEnded);
      return new Promise<Settled>((resolve) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const finish = (): void => {
          if (timer !== undefined) clearTimeout(timer);
          wake = undefined;
          collect(observer.takeRecords());
          stop();
          resolve({ unloading, mutated, dialogs, errors, settledMs: Math.round(performance.now() - started) });
        };
        const check = (): void => {
          const now = performance.now();
          if (unloading || now - actionEnded >= capMs) return finish();
          const quietFor = now - lastActivity;
          if (pending === 0 && quietFor >= quietMs) return finish();
          const wait = pending > 0 ? quietMs : quietMs - quietFor;
          timer = setTimeout(check, Math.max(1, Math.min(wait, capMs - (now - actionEnded))));
        };
        // Only with the shim's channel does the agent see timers and requests: without it, nothing started is
        // never certain, and the whole quiet window is waited.
        const early = (): void => {
          collect(observer.takeRecords());
          if (!active && pending === 0) return finish();
          check();
        };
        wake = finish;
        if (unloading) return finish();
        const first = options.channel && START_WINDOW_MS < quietMs ? early : check;
        const firstMs = Math.min(options.channel ? START_WINDOW_MS : quietMs, quietMs, capMs);
        timer = setTimeout(first, Math.max(0, actionEnded + firstMs - performance.now()));
      });
    },
  };
}
