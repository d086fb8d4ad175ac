import { describe, expect, it, vi } from 'vitest';
import type { PendingApproval } from '../../shared/records';
import { CONNECTION_LOG_LIMIT, PersistentState } from './persistent-state';
import { fakeWorker, MemoryStorageArea } from '../test-helpers';

function areas() {
  return { local: new MemoryStorageArea(), session: new MemoryStorageArea() };
}

const approval: PendingApproval = {
  key: 'server:t1:a1',
  source: 'server',
  threadId: 't1',
  turnId: 'u1',
  requestId: 'a1',
  tabId: 7,
  origin: 'https://example.com',
  toolName: 'bash',
  preview: 'Run ls',
  arguments: { command: 'ls' },
  choices: ['allow', 'allow_session', 'deny'],
  createdAtMs: 1,
};

describe('PersistentState', () => {
  it('recovers bindings, pending approvals, rules and settings after a worker restart', async () => {
    const storage = areas();
    const before = new PersistentState(storage);
    await before.load();
    await before.setBinding(7, { threadId: 't1' });
    await before.setBinding(9, { threadId: 't2' });
    await before.updatePending([approval]);
    await before.setRules([
      { id: 'r1', origin: 'https://example.com', toolClass: 'read', decision: 'allow', createdAtMs: 2 },
    ]);
    await before.updateSettings({ backend: 'codex', model: 'gpt' });
    await before.addThreadAllow('t1', { toolClass: 'act', origin: 'https://example.com' });
    await before.addThreadAllow('t1', { toolClass: 'act', origin: 'https://example.com' });

    const after = new PersistentState(storage);
    await after.load();
    expect(after.binding(7)).toEqual({ threadId: 't1' });
    expect(after.tabsForThread('t2')).toEqual([9]);
    expect(after.boundThreads().sort()).toEqual(['t1', 't2']);
    expect(after.pendingApprovals()).toEqual([approval]);
    expect(after.rules().map((r) => r.id)).toEqual(['r1']);
    expect(after.settings()).toEqual({ backend: 'codex', model: 'gpt' });
    expect(after.threadAllows('t1')).toEqual([{ toolClass: 'act', origin: 'https://example.com' }]);
  });

  it("keeps a server approval's session scope across a worker restart, so its card still words the exact-command grant", async () => {
    const storage = areas();
    const before = new PersistentState(storage);
    await before.load();
    await before.updatePending([{ ...approval, sessionScope: 'command' }]);
    const after = new PersistentState(storage);
    await after.load();
    expect(after.pendingApprovals()).toEqual([{ ...approval, sessionScope: 'command' }]);
  });

  it('drops stored entries that do not parse instead of trusting them', async () => {
    const storage = areas();
    await storage.session.set({
      'tether.bindings': { '7': { threadId: 't1' }, '8': { threadId: 42 }, notATab: { threadId: 't3' } },
      'tether.pendingApprovals': [approval, { key: 'broken' }],
    });
    await storage.local.set({ 'tether.siteRules': 'garbage', 'tether.settings': { backend: 5 } });
    const state = new PersistentState(storage);
    await state.load();
    expect(state.boundThreads()).toEqual(['t1']);
    expect(state.pendingApprovals()).toEqual([approval]);
    expect(state.rules()).toEqual([]);
    expect(state.settings()).toEqual({});
  });

  it('clears a setting with null and keeps only the most recent connection errors', async () => {
    const state = new PersistentState(areas());
    await state.load();
    await state.updateSettings({ backend: 'a', model: 'm' });
    await state.updateSettings({ model: null });
    expect(state.settings()).toEqual({ backend: 'a' });
    for (let i = 0; i < CONNECTION_LOG_LIMIT + 5; i++) await state.logConnectionError({ atMs: i, message: `e${i}` });
    expect(state.connectionLog()).toHaveLength(CONNECTION_LOG_LIMIT);
    expect(state.connectionLog().at(-1)?.message).toBe(`e${CONNECTION_LOG_LIMIT + 4}`);
  });

  it('drops stored site rules that no approval could use: machine tools, unknown tools, origins that are not http(s)', async () => {
    const storage = areas();
    const rule = (id: string, origin: string, toolName: string) => ({
      id,
      origin,
      toolName,
      decision: 'allow',
      createdAtMs: 1,
    });
    const classRule = (id: string, origin: string, toolClass: string) => ({
      id,
      origin,
      toolClass,
      decision: 'deny',
      createdAtMs: 1,
    });
    await storage.local.set({
      'tether.siteRules': [
        rule('forged-bash', 'https://example.com', 'bash'),
        rule('unknown', 'https://example.com', 'shell_exec'),
        rule('path', 'https://example.com/page', 'page_read'),
        rule('file', 'file://', 'page_read'),
        rule('good', 'https://example.com', 'page_read'),
        classRule('no-class', 'https://example.com', 'execute'),
        classRule('class-path', 'https://example.com/x', 'act'),
        classRule('class', 'https://example.com', 'act'),
      ],
    });
    const state = new PersistentState(storage);
    await state.load();
    expect(state.rules().map((r) => r.id)).toEqual(['good', 'class']);
    await expect(
      state.setRules([
        { id: 'x', origin: 'https://example.com/a', toolClass: 'read', decision: 'allow', createdAtMs: 2 },
      ]),
    ).rejects.toThrow(/only name an http\(s\) origin exactly/);
    await expect(
      state.setRules([{ id: 'y', origin: 'chrome://settings', toolClass: 'act', decision: 'allow', createdAtMs: 2 }]),
    ).rejects.toThrow(/not "chrome:\/\/settings"/);
    expect(state.rules().map((r) => r.id)).toEqual(['good', 'class']);
  });

  it("reads a rule stored per tool, before rules were kept per class, as the rule for that tool's class", async () => {
    const storage = areas();
    await storage.local.set({
      'tether.siteRules': [
        { id: 'old-read', origin: 'https://a.example', toolName: 'page_read', decision: 'allow', createdAtMs: 3 },
        { id: 'old-shot', origin: 'https://b.example', toolName: 'page_screenshot', decision: 'deny', createdAtMs: 4 },
        { id: 'old-tabs', origin: 'https://c.example', toolName: 'tabs_list', decision: 'allow', createdAtMs: 5 },
      ],
    });
    const state = new PersistentState(storage);
    await state.load();
    expect(state.rules()).toEqual([
      { id: 'old-read', origin: 'https://a.example', toolClass: 'read', decision: 'allow', createdAtMs: 3 },
      { id: 'old-shot', origin: 'https://b.example', toolClass: 'read', decision: 'deny', createdAtMs: 4 },
      { id: 'old-tabs', origin: 'https://c.example', toolClass: 'read', decision: 'allow', createdAtMs: 5 },
    ]);
    // Written back in the new shape the next time the list changes.
    await state.setRules([...state.rules()]);
    const after = new PersistentState(storage);
    await after.load();
    expect(after.rules().map((r) => r.toolClass)).toEqual(['read', 'read', 'read']);
    expect(storage.local.data.get('tether.siteRules')).not.toContain('toolName');
  });

  it('drops a thread grant stored per tool, before grants were kept per class', async () => {
    const storage = areas();
    await storage.session.set({
      'tether.threadAllows': {
        t1: [{ toolName: 'page_read', origin: 'https://a.example' }],
        t2: [{ toolClass: 'read', origin: 'https://b.example' }],
      },
    });
    const state = new PersistentState(storage);
    await state.load();
    // Asked again rather than widened: a per-tool grant does not say which class the user meant to allow.
    expect(state.threadAllows('t1')).toEqual([]);
    expect(state.threadAllows('t2')).toEqual([{ toolClass: 'read', origin: 'https://b.example' }]);
  });

  it('ignores thread grants stored before they carried an origin, so none widens to every site', async () => {
    const storage = areas();
    await storage.session.set({ 'tether.sessionAllows': { t1: ['page_read'] } });
    const state = new PersistentState(storage);
    await state.load();
    expect(state.threadAllows('t1')).toEqual([]);
  });

  it('keeps a handshake failure in local storage only with its secrets masked', async () => {
    const local = new MemoryStorageArea();
    const state = new PersistentState({ local, session: new MemoryStorageArea() });
    await state.load();
    const leaks = [
      'sk-proj-abcdefghijklmnopqrstuv',
      'hunter2222',
      'pw12345678',
      'QK123456',
      'abcdef123456',
      `AIza${'c'.repeat(35)}`,
    ];
    const { worker } = await fakeWorker({
      state,
      connectNative: () => {
        throw new Error(
          `The "vv" backend exited (its last stderr line: "OPENAI_API_KEY=${leaks[0]} --api-key ${leaks[1]} https://u:${leaks[2]}@h/v1?api-key=${leaks[3]} ` +
            `Authorization: Bearer ${leaks[4]} key ${leaks[5]}")`,
        );
      },
    });
    worker.link.start();
    await vi.waitFor(() => expect(local.data.get('tether.connectionLog')).toBeDefined());
    worker.link.stopWaiting();
    const stored = local.data.get('tether.connectionLog')!;
    expect(stored).toContain('The \\"vv\\" backend exited');
    for (const leak of leaks) expect(stored).not.toContain(leak);
    expect(JSON.stringify(worker.workerState())).not.toContain(leaks[1]);
  });

  it('masks secrets in connection errors an older version stored unredacted', async () => {
    const storage = areas();
    await storage.local.set({ 'tether.connectionLog': [{ atMs: 1, message: 'host said: token=abcdef123456' }] });
    const state = new PersistentState(storage);
    await state.load();
    expect(state.connectionLog()).toEqual([{ atMs: 1, message: 'host said: token=***' }]);
  });
});
