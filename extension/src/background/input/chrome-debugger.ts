/**
 * chrome.debugger bound to the input layer's DebuggerApi and event waits (Chrome family only: Firefox has no
 * `chrome.debugger`, and `chromeDebugger()` answers undefined there).
 */
import { CDP_VERSION, type DebuggerApi } from './debugger-session';

/** The tab's debugger API, or undefined where the browser has none (Firefox). */
export function chromeDebugger(): DebuggerApi | undefined {
  if (typeof chrome === 'undefined' || !chrome.debugger?.attach) return undefined;
  return {
    attach: (tabId) => chrome.debugger.attach({ tabId }, CDP_VERSION),
    detach: (tabId) => chrome.debugger.detach({ tabId }),
    send: (tabId, method, params) => chrome.debugger.sendCommand({ tabId }, method, params),
    onDetach: (listener) =>
      chrome.debugger.onDetach.addListener((source, reason) => {
        if (source.tabId !== undefined) listener(source.tabId, reason);
      }),
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
