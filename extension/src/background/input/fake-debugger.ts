/**
 * A fake chrome.debugger for unit tests: it records attaches, detaches and commands, can refuse an attach with
 * Chrome's own error text, and can drop the attachment the way a navigation or the infobar's Cancel does.
 */
import type { DebuggerApi, Timers } from './debugger-session';

/** The fake debugger and its controls. */
export function fakeDebugger() {
  const state = {
    attached: new Set<number>(),
    attaches: 0,
    detaches: 0,
    commands: [] as { tabId: number; method: string; params: Record<string, unknown> | undefined }[],
    /** Chrome's error for the next attach, if it should fail. */
    refuseAttach: undefined as string | undefined,
    listener: undefined as ((tabId: number, reason: string) => void) | undefined,
    /** What a command answers, by method (`{}` when absent). */
    answers: {} as Record<string, unknown>,
  };
  const api: DebuggerApi = {
    attach: async (tabId) => {
      state.attaches++;
      if (state.refuseAttach) throw new Error(state.refuseAttach);
      state.attached.add(tabId);
    },
    detach: async (tabId) => {
      state.detaches++;
      if (!state.attached.delete(tabId)) throw new Error(`Debugger is not attached to the tab with id: ${tabId}.`);
    },
    send: async (tabId, method, params) => {
      if (!state.attached.has(tabId)) throw new Error(`Debugger is not attached to the tab with id: ${tabId}.`);
      state.commands.push({ tabId, method, params });
      return state.answers[method] ?? {};
    },
    onDetach: (listener) => {
      state.listener = listener;
    },
  };
  return {
    api,
    state,
    /** Chrome detaches by itself: `canceled_by_user` (the bar's Cancel) or `target_closed` (a navigation). */
    drop(tabId: number, reason: string): void {
      state.attached.delete(tabId);
      state.listener?.(tabId, reason);
    },
    /** Chrome lost the attachment without telling (a cross-process navigation): the next command fails. */
    lose(tabId: number): void {
      state.attached.delete(tabId);
    },
  };
}

/** Timers a test fires by hand. */
export function manualTimers(): Timers & { fire(): void; pending(): number } {
  const timers = new Map<number, () => void>();
  let next = 1;
  return {
    set: (fn) => {
      const id = next++;
      timers.set(id, fn);
      return id;
    },
    clear: (handle) => {
      timers.delete(handle as number);
    },
    fire: () => {
      const all = [...timers.values()];
      timers.clear();
      for (const fn of all) fn();
    },
    pending: () => timers.size,
  };
}
