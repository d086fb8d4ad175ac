/**
 * A fake tab for unit tests of the page tools and the worker's gate: its frames answer agent calls as chrome-pages.ts
 * does (a call in the name of another document is stale, a frame that is gone rejects), and their agents answer with
 * the shapes of shared/agent-contract.ts, built by the helpers below.
 */
import type { ActResult, AgentCall, ElementFacts, FindResult, FrameSnapshot } from '../../shared/agent-contract';
import { PageTools } from './page-tools';
import { unusedPageTools } from '../test-helpers';

export { facts } from '../../shared/agent-contract.fixtures';

/** What a fake frame's agent answers, per call; a call it has no answer for gets `undefined`. */
export type FakeAgent = Partial<{
  snapshot(call: Extract<AgentCall, { op: 'snapshot' }>): FrameSnapshot;
  find(call: Extract<AgentCall, { op: 'find' }>): FindResult;
  describe(ref: string): ElementFacts | 'stale';
  act(call: Extract<AgentCall, { op: 'act' }>): ActResult | Promise<ActResult>;
  wait(call: Extract<AgentCall, { op: 'wait' }>): unknown;
  read(call: Extract<AgentCall, { op: 'read' }>): unknown;
}>;

/** One frame's document as the fake tab shows it: its id and the agent running in it (answers as the contract says). */
export interface FakeFrame {
  docId: string;
  agent: FakeAgent;
}

/** A tab (id 1) whose frames answer agent calls like chrome-pages.ts does: stale for another document, gone frames reject. */
export function fakeTab(url = 'https://a.example/', title = 'A') {
  const tab = {
    url,
    title,
    frames: new Map<number, FakeFrame>(),
    calls: [] as { frameId: number; call: AgentCall; expectDoc: string | undefined }[],
    shims: [] as number[],
    reads: [] as number[],
    captures: [] as unknown[],
    navigations: [] as unknown[],
    /** What a navigation does to the tab (the test sets it). */
    onNavigate: (_to: unknown) => {},
  };
  const deps = unusedPageTools({
    readPage: async (_tabId, maxChars) => {
      tab.reads.push(maxChars);
      return { url: tab.url, title: tab.title, selection: 'picked words', text: 'Body text.', truncated: true };
    },
    listTabs: async () => [{ id: 1, title: tab.title, url: tab.url, active: true }],
    capture: async (_tabId, box) => {
      tab.captures.push(box);
      return 'data:image/png;base64,iVBORw0KGgo=';
    },
    injectAgent: async () => [...tab.frames.keys()].sort((a, b) => a - b),
    callAgent: async (_tabId, frameId, call, expectDoc) => {
      tab.calls.push({ frameId, call, expectDoc });
      const frame = tab.frames.get(frameId);
      if (!frame) throw new Error(`No frame with id ${frameId}.`);
      if (expectDoc !== undefined && expectDoc !== frame.docId) return { docId: frame.docId, stale: true };
      return { docId: frame.docId, stale: false, value: await answer(frame.agent, call) };
    },
    installDialogShim: async (_tabId, frameId) => {
      tab.shims.push(frameId);
      return 'fake-channel';
    },
    tabInfo: async () => ({ url: tab.url, title: tab.title }),
    navigate: async (_tabId, to) => {
      tab.navigations.push(to);
      tab.onNavigate(to);
    },
  });
  return { tab, tools: new PageTools(deps), deps };
}

async function answer(agent: FakeAgent, call: AgentCall): Promise<unknown> {
  switch (call.op) {
    case 'snapshot':
      return agent.snapshot?.(call);
    case 'find':
      return agent.find?.(call);
    case 'describe': {
      const el = agent.describe?.(call.ref);
      return el === 'stale' || el === undefined ? { stale: true, error: 'gone' } : { stale: false, element: el };
    }
    case 'act':
      return agent.act?.(call);
    case 'wait':
      return agent.wait?.(call);
    case 'read':
      return agent.read?.(call);
    case 'highlight':
      return true;
  }
}

/** A frame snapshot of `lines`. */
export const snap = (url: string, lines: string[], over: Partial<FrameSnapshot> = {}): FrameSnapshot => ({
  url,
  title: 'A',
  lines,
  iframes: [],
  unreadable: 0,
  ...over,
});

/** An action's result: nothing changed unless `over` says so. */
export const acted = (over: Partial<ActResult> = {}): ActResult => ({
  unloading: false,
  changed: [],
  dialogs: [],
  errors: [],
  settledMs: 12,
  ...over,
});
