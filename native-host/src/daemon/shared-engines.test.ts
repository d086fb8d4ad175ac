import { describe, expect, it } from 'vitest';
import { createAppServer } from '../app-server';
import { EmbeddedBackend } from '../backends/embedded-backend';
import { RestartRefused } from '../backends/restart-refused';
import { loadConfig } from '../config/load';
import { type BackendGone, BackendSupervisor } from '../host/backend-supervisor';
import { useTempDirs } from '../testing/temp-dirs';
import { SharedEngines } from './shared-engines';

const tempDir = useTempDirs('tether-shared-engines-');

interface Message {
  id?: number;
  method?: string;
  params?: { turn?: { id: string; status: string } };
  result?: { thread?: { id: string }; turn?: { id: string }; unfinishedTurns?: unknown };
  error?: { message: string };
}

/** The daemon's engines, counting how many were opened, over one data dir. */
function daemonEngines() {
  const dataDir = tempDir();
  const counted = { opened: 0 };
  const engines = new SharedEngines((settings) => {
    counted.opened++;
    return createAppServer({ ...settings, log: () => undefined });
  });
  /** The config a connection loaded: the embedded backend on the data dir, with its default model. */
  const configWith = (model = 'scripted') =>
    loadConfig({
      platform: 'linux',
      homedir: '/home/u',
      env: {},
      readFile: () => JSON.stringify({ backends: { embedded: { kind: 'embedded', dataDir, model } } }),
    });
  return { engines, config: configWith(), configWith, counted };
}

/** One browser connection of the daemon: its supervisor over an embedded backend joining the shared engine. */
function browser({ engines, config }: Pick<ReturnType<typeof daemonEngines>, 'engines' | 'config'>) {
  const gone: BackendGone[] = [];
  const received: Message[] = [];
  const waiters = new Set<() => void>();
  const heard = (m: Message) => {
    received.push(m);
    for (const w of [...waiters]) w();
  };
  const context = { configFile: 'config.json', dataDir: '/unused', maxLineBytes: 1 << 20, log: () => undefined };
  const supervisor = new BackendSupervisor(
    {
      config,
      log: () => undefined,
      setInputPaused: () => undefined,
      now: () => 0,
      createBackend: (id, c) => {
        if (c.kind !== 'embedded') throw new Error('this test configures the embedded backend only');
        return new EmbeddedBackend(id, c, { ...context, sharedEngine: (options) => engines.get(options) });
      },
    },
    {
      started: () => undefined,
      output: {
        message: (chunk, start, end) => heard(JSON.parse(chunk.toString('utf8', start, end)) as Message),
        messageParts: (parts) => heard(JSON.parse(Buffer.concat(parts).toString('utf8')) as Message),
        problem: () => undefined,
      },
      gone: (e) => gone.push(e),
    },
  );
  const until = (test: (m: Message) => boolean): Promise<Message> =>
    new Promise((resolve) => {
      const check = () => {
        const found = received.find(test);
        if (!found) return;
        waiters.delete(check);
        resolve(found);
      };
      waiters.add(check);
      check();
    });
  let nextId = 1;
  const send = (message: Record<string, unknown>) => {
    const bytes = Buffer.from(JSON.stringify(message));
    const backend = supervisor.ready;
    if (!backend) throw new Error('no backend is ready');
    backend.send([bytes], bytes.length);
  };
  const call = async (method: string, params: Record<string, unknown>): Promise<Message> => {
    const id = nextId++;
    send({ id, method, params });
    const answer = await until((m) => m.id === id && m.method === undefined);
    if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
    return answer;
  };
  const connect = async () => {
    supervisor.ensureStarted();
    await call('initialize', { clientInfo: { name: 't', version: '1' } });
    send({ method: 'initialized' });
  };
  /** Starts a thread and a turn that runs until something ends it (its bash call waits for an approval). */
  const startRunningTurn = async (): Promise<{ threadId: string; turnId: string }> => {
    const started = await call('thread/start', {});
    const threadId = required(started.result?.thread?.id, 'the started thread');
    const turn = await call('turn/start', { threadId, input: [{ text: '/bash sleep 30' }] });
    await until((m) => m.method === 'turn/started');
    return { threadId, turnId: required(turn.result?.turn?.id, 'the started turn') };
  };
  return { supervisor, gone, received, until, call, connect, startRunningTurn };
}

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`the app-server did not answer with ${what}`);
  return value;
}

describe('restarting the embedded backend in the daemon', () => {
  it("replaces the shared engine when only the restarting browser's turns run: they end interrupted, the other browser sees its backend end, and the next connection opens a fresh engine", async () => {
    const daemon = daemonEngines();
    const one = browser(daemon);
    const other = browser(daemon);
    await one.connect();
    await other.connect();
    expect(daemon.counted.opened).toBe(1);
    const { threadId, turnId } = await one.startRunningTurn();

    await one.supervisor.restart();

    expect(one.received).toContainEqual(
      expect.objectContaining({
        method: 'turn/completed',
        params: expect.objectContaining({ turn: expect.objectContaining({ id: turnId, status: 'interrupted' }) }),
      }),
    );
    expect(one.gone).toMatchObject([{ kind: 'stopped', backend: 'embedded' }]);
    expect(other.gone).toMatchObject([
      {
        kind: 'crashed',
        backend: 'embedded',
        restartInMs: 0,
        reason: expect.stringContaining("restarted for every browser (restarted at the browser's request)"),
      },
    ]);
    // The restarted backend joins a new engine, which reads the turn back from the journal as interrupted.
    await one.connect();
    expect(daemon.counted.opened).toBe(2);
    const read = await one.call('thread/read', { threadId });
    expect(read.result?.unfinishedTurns).toMatchObject([{ id: turnId, status: 'interrupted' }]);
    await other.connect();
    expect(daemon.counted.opened).toBe(2);
    await one.supervisor.shutdown();
    await other.supervisor.shutdown();
    await daemon.engines.close();
  });

  it('refuses while a turn runs on a thread another browser follows, and changes nothing', async () => {
    const daemon = daemonEngines();
    const one = browser(daemon);
    const other = browser(daemon);
    await one.connect();
    await other.connect();
    const { threadId, turnId } = await one.startRunningTurn();
    await other.call('thread/resume', { threadId });

    const refused = one.supervisor.restart();
    await expect(refused).rejects.toBeInstanceOf(RestartRefused);
    await expect(refused).rejects.toThrow(
      /not restarted: 1 turn\(s\) run on it that this browser does not follow alone/,
    );

    expect(daemon.counted.opened).toBe(1);
    expect(daemon.engines.runningTurns).toBe(1);
    expect(one.gone).toEqual([]);
    expect(other.gone).toEqual([]);
    // Both browsers go on over the same engine, and the turn can still be stopped by the user.
    await one.call('turn/interrupt', { threadId, turnId });
    await other.until(
      (m) => m.method === 'turn/completed' && m.params?.turn?.id === turnId && m.params.turn.status === 'interrupted',
    );
    await one.supervisor.restart();
    expect(daemon.counted.opened).toBe(1);
    await one.connect();
    expect(daemon.counted.opened).toBe(2);
    await one.supervisor.shutdown();
    await other.supervisor.shutdown();
    await daemon.engines.close();
  });

  it('refuses while a turn runs that no browser follows any more (its browser closed)', async () => {
    const daemon = daemonEngines();
    const gone = browser(daemon);
    const one = browser(daemon);
    await gone.connect();
    await one.connect();
    await gone.startRunningTurn();
    await gone.supervisor.shutdown();
    expect(daemon.engines.runningTurns).toBe(1);

    await expect(one.supervisor.restart()).rejects.toThrow(RestartRefused);
    expect(daemon.engines.runningTurns).toBe(1);
    expect(one.supervisor.ready).toBeDefined();
    await one.supervisor.shutdown();
    await daemon.engines.close();
  });
});

describe('a config change in the daemon', () => {
  it("reopens the built-in app-server's engine with the new settings once nothing uses it", async () => {
    const daemon = daemonEngines();
    const before = browser(daemon);
    await before.connect();
    expect((await before.call('thread/start', {})).result?.thread).toMatchObject({ model: 'scripted' });
    await before.supervisor.shutdown();

    const after = browser({ ...daemon, config: daemon.configWith('gpt-test') });
    await after.connect();
    expect(daemon.counted.opened).toBe(2);
    expect((await after.call('thread/start', {})).result?.thread).toMatchObject({ model: 'gpt-test' });
    await after.supervisor.shutdown();
    await daemon.engines.close();
  });

  it('keeps one engine on the data dir while a turn runs: the next connection joins it and finds the turn running', async () => {
    const daemon = daemonEngines();
    const before = browser(daemon);
    await before.connect();
    const { threadId, turnId } = await before.startRunningTurn();
    await before.supervisor.shutdown();

    const after = browser({ ...daemon, config: daemon.configWith('gpt-test') });
    await after.connect();
    expect(daemon.counted.opened).toBe(1);
    const resumed = await after.call('thread/resume', { threadId });
    expect(resumed.result).toMatchObject({ thread: { status: expect.not.stringMatching(/^idle$/) } });
    await after.call('turn/interrupt', { threadId, turnId });
    await after.until((m) => m.method === 'turn/completed' && m.params?.turn?.id === turnId);
    await after.supervisor.shutdown();
    await daemon.engines.close();
  });
});
