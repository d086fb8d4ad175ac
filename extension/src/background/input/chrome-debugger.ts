/**
 * chrome.debugger bound to the input layer's DebuggerApi and event waits (Chrome family only: Firefox has no
 * `chrome.debugger`, and `chromeDebugger()` answers undefined there).
 */
import { CDP_VERSION, type DebuggerApi } from './debugger-session';

/** The tab's debugger API, or undefined where the browser has none (Firefox). */
export function chromeDebugger(): (DebuggerApi & { cancelAsUser(tabId: number): Promise<void> }) | undefined {
  if (typeof chrome === 'undefined' || !chrome.debugger?.attach) return undefined;
  const listeners: ((tabId: number, reason: string) => void)[] = [];
  return {
    attach: (tabId) => chrome.debugger.attach({ tabId }, CDP_VERSION),
    detach: (tabId) => chrome.debugger.detach({ tabId }),
    send: (tabId, method, params) => chrome.debugger.sendCommand({ tabId }, method, params),
    onDetach: (listener) => {
      listeners.push(listener);
      chrome.debugger.onDetach.addListener((source, reason) => {
        if (source.tabId !== undefined) listener(source.tabId, reason);
      });
    },
    /**
     * What the bar's Cancel does (detach, then onDetach with `canceled_by_user`), for tests: a headless browser shows
     * no bar to press. Reached only from the worker's own global scope, never from a page.
     */
    cancelAsUser: async (tabId) => {
      await chrome.debugger.detach({ tabId }).catch(() => undefined);
      for (const listener of listeners) listener(tabId, 'canceled_by_user');
    },
  };
}

/** Listens for one CDP event of a tab; `settled()` is its params once it came, `cancel()` stops listening. */
export function chromeEventWait(
  tabId: number,
  method: string,
): { promise: Promise<unknown>; settled(): unknown; cancel(): void } {
  let got: unknown;
  let resolve: (v: unknown) => void = () => {};
  const promise = new Promise<unknown>((r) => {
    resolve = r;
  });
  const listener = (source: chrome.debugger.Debuggee, m: string, params?: object): void => {
    if (source.tabId !== tabId || m !== method || got !== undefined) return;
    got = params ?? {};
    resolve(got);
    chrome.debugger.onEvent.removeListener(listener);
  };
  chrome.debugger.onEvent.addListener(listener);
  return {
    promise,
    settled: () => got,
    cancel: () => chrome.debugger.onEvent.removeListener(listener),
  };
}
