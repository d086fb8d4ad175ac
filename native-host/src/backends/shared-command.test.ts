import { describe, expect, it } from 'vitest';
import { McpHub } from '../mcp/hub';
import { RestartRefused } from './restart-refused';
import { FakeBackend } from '../testing/fake-backend';
import { SharedCommand, type SharedCommandOptions } from './shared-command';
import { SharedCommandClient } from './shared-command-client';
import type { BackendExit, BackendSink } from './types';

/** A browser connection's sink that records what it is told. */
function recordingSink(): BackendSink & { problems: string[]; messages: unknown[]; exits: BackendExit[] } {
  const problems: string[] = [];
  const messages: unknown[] = [];
  const exits: BackendExit[] = [];
  return {
    problems,
    messages,
    exits,
    message: (chunk, start, end) => messages.push(JSON.parse(chunk.toString('utf8', start, end))),
    messageParts: (parts, length) => messages.push(JSON.parse(Buffer.concat(parts, length).toString('utf8'))),
    problem: (message) => problems.push(message),
    inputPressure: () => undefined,
    exit: (info) => exits.push(info),
  };
}

function sharedCommand(now: () => number): { backend: FakeBackend; shared: SharedCommand } {
  const backend = new FakeBackend('agent', { kind: 'command', argv: ['agent'], dialect: 'acp' });
  const options: SharedCommandOptions = {
    log: () => undefined,
    pageToolWaitMs: 1000,
    hub: new McpHub({ browser: 'daemon', log: () => undefined, connection: 0 }),
    create: () => backend,
    now,
  };
  return { backend, shared: new SharedCommand(backend, options) };
}

describe('a shared command backend', () => {
  it('reports lines that are not JSON as the in-process host does: five, then one a second saying how many it dropped', () => {
    let clock = 10_000;
    const { backend, shared } = sharedCommand(() => clock);
    const sink = recordingSink();
    new SharedCommandClient(shared, () => undefined).start(sink);
    const garbage = (n: number): void => {
      const line = Buffer.from(`log line ${n}`);
      backend.sink.message(line, 0, line.length);
    };
    for (let n = 1; n <= 50; n++) garbage(n);
    expect(sink.problems).toHaveLength(5);
    clock += 1000;
    garbage(51);
    expect(sink.problems).toHaveLength(6);
    expect(sink.problems[5]).toContain('(45 more such lines were dropped since the last report)');
    expect(sink.problems[5]).toContain('"log line 51"');
  });
});

/** A browser connection on `shared`, with its sink, that sends requests and has the fake agent answer them. */
function browserOn(shared: SharedCommand, backend: FakeBackend) {
  const sink = recordingSink();
  const client = new SharedCommandClient(shared, () => undefined);
  client.start(sink);
  let nextId = 1;
  /** Sends the request; the agent answers it with `result` (to the id it was forwarded under). */
  const call = (method: string, params: Record<string, unknown>, result: unknown): void => {
    const message = Buffer.from(JSON.stringify({ id: nextId++, method, params }));
    client.send([message], message.length);
    const forwarded = backend.received.at(-1) as { id: number };
    backend.emit({ id: forwarded.id, result });
  };
  return {
    client,
    sink,
    /** Starts thread `threadId` (the connection follows it). */
    startThread: (threadId: string) => call('thread/start', {}, { thread: { id: threadId } }),
    /** Resumes thread `threadId` (the connection follows it). */
    resume: (threadId: string) => call('thread/resume', { threadId }, { thread: { id: threadId } }),
    /** Starts turn `turnId` on the thread; the agent's answer does not name the thread, as Codex's does not. */
    startTurn: (threadId: string, turnId: string) =>
      call('turn/start', { threadId, input: [] }, { turn: { id: turnId, status: 'running' } }),
  };
}

/** A shared backend with two browser connections on it, `a` and `b`. */
function twoBrowsers() {
  const { backend, shared } = sharedCommand(Date.now);
  return { backend, shared, a: browserOn(shared, backend), b: browserOn(shared, backend) };
}

describe('restarting a shared command backend', () => {
  const completed = (threadId: string, turnId: string) => ({
    method: 'turn/completed',
    params: { threadId, turn: { id: turnId, threadId, status: 'completed' } },
  });

  it("is refused, with nothing stopped, while another browser's turn runs, and goes through once it ended", async () => {
    const { backend, shared, a, b } = twoBrowsers();
    a.startThread('t1');
    a.startTurn('t1', 'u1');

    const refused = await b.client.stopProcess('restarted').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RestartRefused);
    expect(refused).toMatchObject({ code: -32022, data: { backend: 'agent', runningTurns: 1 } });
    expect(refused).toMatchObject({ message: expect.stringContaining('open them from History and stop them') });
    expect(backend.stopped).toBe(false);
    expect(shared.runningTurns).toBe(1);

    // A's turn goes on and reaches A.
    backend.emit(completed('t1', 'u1'));
    expect(a.sink.messages).toContainEqual(completed('t1', 'u1'));
    await b.client.stopProcess('restarted');
    expect(backend.stopped).toBe(true);
    expect(a.sink.exits.map((e) => e.message)).toEqual(['stopped (stopped: restarted)']);
  });

  it('goes through while only the restarting browser follows the running turn', async () => {
    const { backend, shared, a, b } = twoBrowsers();
    a.startThread('t1');
    b.startThread('t2');
    b.startTurn('t2', 'u2');

    expect(shared.runningTurnsBeyond(b.client)).toBe(0);
    expect(shared.runningTurnsBeyond(a.client)).toBe(1);
    await b.client.stopProcess('restarted');
    expect(backend.stopped).toBe(true);
    expect(a.sink.exits).toHaveLength(1);
  });

  it('counts a turn whose thread another browser follows too, or none since its browser closed', async () => {
    const { backend, shared, a, b } = twoBrowsers();
    b.startThread('t1');
    b.startTurn('t1', 'u1');
    a.resume('t1');
    // Both follow it: neither may cut it off.
    expect(shared.runningTurnsBeyond(a.client)).toBe(1);
    expect(shared.runningTurnsBeyond(b.client)).toBe(1);

    // B closes: no one follows it now, so A may not restart either, until it follows the thread (alone) again.
    await b.client.stop();
    const c = browserOn(shared, backend);
    await a.client.stop();
    await expect(c.client.stopProcess('restarted')).rejects.toBeInstanceOf(RestartRefused);
    expect(backend.stopped).toBe(false);
    c.resume('t1');
    await c.client.stopProcess('restarted');
    expect(backend.stopped).toBe(true);
  });

  it('knows the thread of a turn the agent announced only by turn/started', async () => {
    const { backend, shared, a, b } = twoBrowsers();
    a.startThread('t1');
    backend.emit({ method: 'turn/started', params: { threadId: 't1', turn: { id: 'u1', status: 'running' } } });
    expect(shared.runningTurnsBeyond(a.client)).toBe(0);
    expect(shared.runningTurnsBeyond(b.client)).toBe(1);
  });
});
