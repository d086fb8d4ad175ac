/** Fakes of browser storage and of the worker's browser APIs, for unit tests without a browser. */
import { AppServerClient, createMemoryTransportPair, type ToolCallResult } from '@tether/protocol';
import { vi } from 'vitest';
import type { PageToolDeps } from './page-tools/page-tool-deps';
import { PersistentState, type StorageAreaLike } from './views/persistent-state';
import { TetherWorker, type WorkerDeps } from './worker';

/** An in-memory chrome.storage area that round-trips values through JSON, as the real one does. */
export class MemoryStorageArea implements StorageAreaLike {
  readonly data = new Map<string, string>();

  async get(keys: string[]): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    for (const k of keys) {
      const v = this.data.get(k);
      if (v !== undefined) out[k] = JSON.parse(v);
    }
    return out;
  }

  async set(items: Record<string, unknown>): Promise<void> {
    for (const [k, v] of Object.entries(items)) this.data.set(k, JSON.stringify(v));
  }
}

/**
 * A worker over in-memory storage with inert browser APIs (no native port: a test attaches its own client);
 * `overrides` replaces any of them.
 */
export async function fakeWorker(
  overrides: Partial<WorkerDeps> = {},
): Promise<{ worker: TetherWorker; state: PersistentState }> {
  const state = new PersistentState({ local: new MemoryStorageArea(), session: new MemoryStorageArea() });
  await state.load();
  const worker = new TetherWorker({
    state,
    connectNative: () => {
      throw new Error('not used: the test attaches its own client');
    },
    lastError: () => undefined,
    tab: async () => ({ url: 'https://a.example/', title: 'A' }),
    setBadge: () => {},
    pageTools: unusedPageTools(),
    tabs: {
      openTab: async () => {
        throw new Error('not used: the test opens no tab');
      },
      closeTab: async () => {},
    },
    clientInfo: { name: 'test', version: '0' },
    extensionId: 'x',
    os: () => 'linux',
    now: () => 5,
    random: () => 0.5,
    newId: () => 'id',
    log: () => {},
    ...overrides,
  });
  return { worker, state };
}

/** Page tool access where every call fails: tests that use a tool replace the parts they need. */
export function unusedPageTools(over: Partial<PageToolDeps> = {}): PageToolDeps {
  const unused = async (): Promise<never> => {
    throw new Error('not used by this test');
  };
  return {
    readPage: unused,
    listTabs: unused,
    capture: unused,
    injectAgent: async () => [0],
    callAgent: unused,
    installDialogShim: async () => 'test-channel',
    tabInfo: async () => ({ url: 'https://a.example/', title: 'A' }),
    navigate: unused,
    waitForLoad: async () => true,
    frameOffset: async () => ({ x: 0, y: 0 }),
    readFiles: unused,
    ...over,
  };
}

/**
 * A host on the far side of `worker`'s link that sends `item/tool/call` requests of thread t1, turn u1: `send`
 * returns the request's number, `answered` says whether the worker answered it, `answer` waits for its result.
 */
export function toolCallHost(worker: TetherWorker) {
  const [hostSide, workerSide] = createMemoryTransportPair();
  const answers = new Map<unknown, ToolCallResult | undefined>();
  hostSide.start({
    onMessage: (m) => {
      const reply = m as { id: unknown; result?: ToolCallResult };
      answers.set(reply.id, reply.result);
    },
    onClose: () => {},
  });
  worker['attach'](new AppServerClient(workerSide));
  let n = 0;
  return {
    send(tool: string, args: unknown = {}): number {
      const id = ++n;
      hostSide.send({
        id,
        method: 'item/tool/call',
        params: { threadId: 't1', turnId: 'u1', callId: `c${id}`, tool, arguments: args },
      });
      return id;
    },
    answered: (id: number): boolean => answers.has(id),
    answer: (id: number, tool: string): Promise<ToolCallResult> =>
      vi.waitFor(
        () => {
          if (!answers.has(id)) throw new Error(`no answer to ${tool} yet`);
          return answers.get(id)!;
        },
        { timeout: 2000, interval: 1 },
      ),
  };
}
