import {
  AppServerClient,
  Connection,
  clientInbound,
  createMemoryTransportPair,
  type Item,
  serverInbound,
  type Thread,
  type ThreadResumeParams,
  type Turn,
} from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import type { WorkerToView } from '../shared/messages';
import { fakeWorker, MemoryStorageArea } from './test-helpers';
import { PersistentState } from './views/persistent-state';
import type { TetherWorker } from './worker';

const thread: Thread = {
  id: 't1',
  title: 'T',
  model: 'scripted',
  status: 'running',
  archived: false,
  ephemeral: false,
  createdAtMs: 1,
  updatedAtMs: 1,
};
const turn: Turn = { id: 'u1', threadId: 't1', status: 'running', input: [{ text: 'count' }], startedAtMs: 1 };
const item = (id: string, status: Item['status'], text = id): Item => ({
  id,
  type: 'agentMessage',
  status,
  createdAtMs: 1,
  turnId: 'u1',
  content: { text },
});

/** Connects `worker` to a server that answers thread/resume with `answer`; returns the params it was asked with. */
function connect(worker: TetherWorker, answer: (p: ThreadResumeParams) => { items: Item[] }): ThreadResumeParams[] {
  const [a, b] = createMemoryTransportPair();
  const server = new Connection(a, { inbound: serverInbound, outbound: clientInbound });
  const asked: ThreadResumeParams[] = [];
  server.onRequest('thread/resume', (p) => {
    asked.push(p);
    return { thread, activeTurn: turn, ...answer(p) };
  });
  const client = new AppServerClient(b);
  // The link's connected phase without a native port: the handshake is not what these tests are about.
  worker.link['phaseValue'] = { status: 'connected', client, sinceMs: 0 } as never;
  return asked;
}

/** A worker whose tab 1 shows thread t1, running turn u1; returns what its panel was sent from here on. */
async function runningTurn() {
  const { worker, state } = await fakeWorker();
  await state.setBinding(1, { threadId: 't1' });
  const sent: WorkerToView[] = [];
  worker.views.add({ id: 1, kind: 'sidepanel', tabId: 1, send: (m) => sent.push(m) });
  const turn = { id: 'u1', threadId: 't1', status: 'running', input: [{ text: 'hi' }], startedAtMs: 1 };
  worker.router.routeBatch([{ method: 'turn/started', params: { turn } }]);
  sent.length = 0;
  return { worker, sent };
}

describe('TetherWorker connection loss with the daemon', () => {
  it('keeps a running turn when the host relaying to the daemon stops: the daemon goes on with it', async () => {
    const { worker, sent } = await runningTurn();
    worker['daemonServed'] = true;
    worker.link['deps'].onLost({ cause: 'host-stopped', reason: 'Native host has exited.' });
    expect(sent).toEqual([]);
    expect(worker.activeTurn('t1')).toBe('u1');
  });

  it('still marks the turn interrupted when the backend in the daemon stopped', async () => {
    const { worker, sent } = await runningTurn();
    worker['daemonServed'] = true;
    worker.link['deps'].onLost({ cause: 'backend-stopped', reason: 'The backend exited.' });
    expect(sent).toEqual([
      {
        type: 'notice',
        notice: {
          kind: 'turn-interrupted',
          threadId: 't1',
          turnId: 'u1',
          cause: 'backend-stopped',
          reason: 'The backend exited.',
        },
      },
    ]);
    expect(worker.activeTurn('t1')).toBeUndefined();
  });
});

describe('TetherWorker resuming a panel after a reconnect', () => {
  it('asks only for what came after the last finished item the panel has, and tells it the agent kept working', async () => {
    const { worker, state } = await fakeWorker();
    await state.setBinding(1, { threadId: 't1' });
    const sent: WorkerToView[] = [];
    const panel = { id: 1, kind: 'sidepanel' as const, tabId: 1, send: (m: WorkerToView) => sent.push(m) };
    worker.views.add(panel);
    connect(worker, () => ({ items: [item('a', 'completed'), item('b', 'inProgress', '1 2')] }));
    await worker.syncThread('t1', [panel]);
    worker.router.routeBatch([
      { method: 'item/completed', params: { threadId: 't1', turnId: 'u1', item: item('b', 'completed', '1 2 3') } },
    ]);
    const asked = connect(worker, () => ({ items: [item('c', 'inProgress', '4 5')] }));
    sent.length = 0;
    await worker.syncThread('t1', [panel], true);
    expect(asked).toEqual([{ threadId: 't1', afterItemId: 'b' }]);
    expect(sent.filter((m) => m.type === 'snapshot')).toEqual([
      expect.objectContaining({
        type: 'snapshot',
        items: [item('c', 'inProgress', '4 5')],
        resumeAfter: 'b',
        keptWorking: true,
      }),
    ]);
  });

  it('sends a panel that never got the thread the whole snapshot instead', async () => {
    const { worker, state } = await fakeWorker();
    await state.setBinding(1, { threadId: 't1' });
    const sent: WorkerToView[] = [];
    const panel = { id: 1, kind: 'sidepanel' as const, tabId: 1, send: (m: WorkerToView) => sent.push(m) };
    const asked = connect(worker, () => ({ items: [item('a', 'completed')] }));
    await worker.syncThread('t1', [panel], true);
    expect(asked).toEqual([{ threadId: 't1' }]);
    const snapshots = sent.filter((m) => m.type === 'snapshot');
    expect(snapshots).toHaveLength(1);
    expect(snapshots[0]).not.toHaveProperty('resumeAfter');
  });
});

describe('TetherWorker showing a thread again after the browser was away', () => {
  /** A worker whose storage is `local` (kept across browser restarts) and a panel of tab 1 showing thread t1. */
  async function workerOver(local: MemoryStorageArea) {
    const state = new PersistentState({ local, session: new MemoryStorageArea() });
    await state.load();
    const { worker } = await fakeWorker({ state });
    await state.setBinding(1, { threadId: 't1' });
    const sent: WorkerToView[] = [];
    const panel = { id: 1, kind: 'sidepanel' as const, tabId: 1, send: (m: WorkerToView) => sent.push(m) };
    worker.views.add(panel);
    return { worker, panel, sent };
  }
  const user: Item = { ...item('q', 'completed'), type: 'userMessage', content: { text: 'count' } };

  /** The browser saw turn u1 start and its first answer finish, then went away (nothing more reached it). */
  async function seenBeforeRestart(): Promise<MemoryStorageArea> {
    const local = new MemoryStorageArea();
    const { worker, panel } = await workerOver(local);
    connect(worker, () => ({ items: [user] }));
    await worker.syncThread('t1', [panel]);
    worker.router.routeBatch([
      { method: 'turn/started', params: { turn } },
      { method: 'item/completed', params: { threadId: 't1', turnId: 'u1', item: item('a', 'completed') } },
    ]);
    await new Promise((r) => setTimeout(r, 0));
    return local;
  }

  it('puts the note before the first item the browser did not see finish, when the turn still runs', async () => {
    const local = await seenBeforeRestart();
    const { worker, panel, sent } = await workerOver(local);
    connect(worker, () => ({ items: [user, item('a', 'completed'), item('b', 'inProgress', '1 2')] }));
    await worker.syncThread('t1', [panel]);
    const snapshot = sent.find((m) => m.type === 'snapshot');
    expect(snapshot).toMatchObject({ keptWorkingFrom: 'b' });
    expect(snapshot).not.toHaveProperty('resumeAfter');

    // Said once: the page opened again later in this browser gets no note.
    sent.length = 0;
    await worker.syncThread('t1', [panel]);
    expect(sent.find((m) => m.type === 'snapshot')).not.toHaveProperty('keptWorkingFrom');
  });

  it('says nothing when the turn did not go on while the browser was away (it ended unfinished)', async () => {
    const local = await seenBeforeRestart();
    const { worker, panel, sent } = await workerOver(local);
    const [a, b] = createMemoryTransportPair();
    const server = new Connection(a, { inbound: serverInbound, outbound: clientInbound });
    const cut = { ...turn, status: 'interrupted' as const };
    server.onRequest('thread/resume', () => ({
      thread,
      items: [user, item('a', 'completed'), item('b', 'inProgress', '1 2')],
      unfinishedTurns: [cut],
    }));
    worker.link['phaseValue'] = { status: 'connected', client: new AppServerClient(b), sinceMs: 0 } as never;
    await worker.syncThread('t1', [panel]);
    expect(sent.find((m) => m.type === 'snapshot')).not.toHaveProperty('keptWorkingFrom');
  });

  it('says nothing when the turn only waited for an approval while the browser was away', async () => {
    const local = await seenBeforeRestart();
    const { worker, panel, sent } = await workerOver(local);
    const [a, b] = createMemoryTransportPair();
    const server = new Connection(a, { inbound: serverInbound, outbound: clientInbound });
    const tool: Item = {
      id: 'b',
      type: 'toolCall',
      status: 'inProgress',
      createdAtMs: 1,
      turnId: 'u1',
      content: { toolName: 'bash' },
    };
    server.onRequest('thread/resume', () => ({
      thread: { ...thread, status: 'waitingOnApproval' as const },
      activeTurn: turn,
      items: [user, item('a', 'completed'), tool],
    }));
    worker.link['phaseValue'] = { status: 'connected', client: new AppServerClient(b), sinceMs: 0 } as never;
    await worker.syncThread('t1', [panel]);
    expect(sent.find((m) => m.type === 'snapshot')).not.toHaveProperty('keptWorkingFrom');
  });
});
