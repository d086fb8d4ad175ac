import { describe, expect, it } from 'vitest';
import { SharedCommandBackends } from '../backends/shared-command';
import { McpHub } from '../mcp/hub';
import { FakeBackend, twoBackendConfig } from '../testing/fake-backend';
import { type BackendGone, BackendSupervisor, restartDelayMs } from './backend-supervisor';

function setup() {
  const config = twoBackendConfig();
  const backends: FakeBackend[] = [];
  const gone: BackendGone[] = [];
  let now = 0;
  const supervisor = new BackendSupervisor(
    {
      config,
      log: () => undefined,
      setInputPaused: () => undefined,
      now: () => now,
      createBackend: (id, c) => {
        const b = new FakeBackend(id, c, true);
        backends.push(b);
        return b;
      },
    },
    {
      started: () => undefined,
      output: { message: () => undefined, messageParts: () => undefined, problem: () => undefined },
      gone: (e) => gone.push(e),
    },
  );
  return { supervisor, backends, gone, advance: (ms: number) => (now += ms) };
}

describe('BackendSupervisor', () => {
  it('counts quick crashes in a row for the restart delay, and starts afresh after a run of 10 s', () => {
    const t = setup();
    t.supervisor.ensureStarted();
    t.backends[0]!.crash();
    t.supervisor.ensureStarted();
    t.backends[1]!.crash();
    t.supervisor.ensureStarted(); // waits 250 ms: nothing starts yet
    expect(t.backends).toHaveLength(2);
    t.advance(250);
    void t.supervisor.restart(); // a restart forgets the crashes and starts at once
    t.advance(10_000);
    t.backends[2]!.crash();
    expect(t.gone.map((g) => (g.kind === 'crashed' ? g.restartInMs : g.kind))).toEqual([
      restartDelayMs(1),
      restartDelayMs(2),
      restartDelayMs(1),
    ]);
    expect(t.gone[0]).toMatchObject({
      backend: 'a',
      reason: 'The "a" backend exited with code 1 (its last stderr line: "boom")',
    });
  });

  it('is not ready while a backend stops, and reports the stop with its reason once it is over', async () => {
    const t = setup();
    t.supervisor.ensureStarted();
    expect(t.supervisor.ready).toBe(t.backends[0]);
    const switching = t.supervisor.select('b');
    expect(t.supervisor.selected).toBe('b');
    expect(t.supervisor.ready).toBeUndefined();
    t.backends[0]!.finishStop!();
    await switching;
    expect(t.gone).toEqual([
      {
        kind: 'stopped',
        backend: 'a',
        reason: 'the "a" backend was stopped (the browser switched to the "b" backend)',
        exit: expect.objectContaining({ code: 0 }),
      },
    ]);
    t.supervisor.ensureStarted();
    expect(t.backends.map((b) => b.id)).toEqual(['a', 'b']);
    expect(t.supervisor.ready).toBe(t.backends[1]);
  });

  it('starts nothing once shut down', async () => {
    const t = setup();
    t.supervisor.ensureStarted();
    const down = t.supervisor.shutdown();
    t.backends[0]!.finishStop!();
    await down;
    t.supervisor.ensureStarted();
    await t.supervisor.restart();
    expect(t.backends).toHaveLength(1);
    expect(t.supervisor.ready).toBeUndefined();
  });
});

describe('BackendSupervisor over a shared agent', () => {
  function browser(agents: SharedCommandBackends) {
    const gone: BackendGone[] = [];
    const context = { configFile: 'config.json', dataDir: '/tmp/none', maxLineBytes: 1 << 20, log: () => undefined };
    const supervisor = new BackendSupervisor(
      {
        config: twoBackendConfig(),
        log: () => undefined,
        setInputPaused: () => undefined,
        now: () => 0,
        createBackend: (id, c) => agents.connect(id, c, context),
      },
      {
        started: () => undefined,
        output: { message: () => undefined, messageParts: () => undefined, problem: () => undefined },
        gone: (e) => gone.push(e),
      },
    );
    return { supervisor, gone };
  }

  it('restarts the agent process itself; another browser on it sees the end as a crash and its next start joins the new one', async () => {
    const processes: FakeBackend[] = [];
    const agents = new SharedCommandBackends({
      log: () => undefined,
      pageToolWaitMs: 1000,
      hub: new McpHub({ browser: 'daemon', log: () => undefined, connection: 0 }),
      create: (id, c) => {
        const b = new FakeBackend(id, c);
        processes.push(b);
        return b;
      },
    });
    const one = browser(agents);
    const other = browser(agents);
    one.supervisor.ensureStarted();
    other.supervisor.ensureStarted();
    expect(processes).toHaveLength(1);
    await one.supervisor.restart();
    expect(processes[0]!.stopped).toBe(true);
    expect(processes).toHaveLength(2);
    expect(one.gone).toMatchObject([{ kind: 'stopped', backend: 'a' }]);
    expect(other.gone).toMatchObject([
      {
        kind: 'crashed',
        backend: 'a',
        restartInMs: 0,
        reason: expect.stringContaining("restarted at the browser's request"),
      },
    ]);
    other.supervisor.ensureStarted();
    expect(processes).toHaveLength(2);
    const hello = Buffer.from('{"method":"initialized"}');
    other.supervisor.ready?.send([hello], hello.length);
    expect(processes[1]!.received).toEqual([{ method: 'initialized' }]);
  });
});
