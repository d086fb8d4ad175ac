import { PROTOCOL_VERSION } from '@tether/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConnectionState } from '../../shared/records';
import { HostLink, type HostLinkDeps, type LinkLoss } from './host-link';
import type { PortLike } from './native-port';

/**
 * `old`: a host from before protocol versions, whose `bridge/hello` reports none. `oldAgent`: the backend refuses to
 * start because its agent is too old (-32050 with the update command in `data`).
 */
type Behaviour = 'answer' | 'missing' | 'old' | 'oldAgent';

const OLD_AGENT = {
  code: -32050,
  message:
    'Backend unavailable: Codex 0.150.0 is older than 0.171.0, the oldest this Tether supports. Update it: npm install -g @openai/codex@latest',
  data: { olderSide: 'agent', fix: 'npm install -g @openai/codex@latest' },
};

/** A native port whose "host" answers the handshake (or disconnects at once, like a missing host). */
class ScriptedPort implements PortLike {
  readonly sent: Array<{ id?: number; method?: string; params?: unknown }> = [];
  private onMsg: ((m: unknown) => void) | undefined;
  private onDrop: (() => void) | undefined;
  constructor(private readonly behaviour: Behaviour) {}
  readonly onMessage = { addListener: (l: (m: unknown) => void) => void (this.onMsg = l) };
  readonly onDisconnect = {
    addListener: (l: () => void) => {
      this.onDrop = l;
      if (this.behaviour === 'missing') queueMicrotask(() => l());
    },
  };
  postMessage(m: { id?: number; method?: string; params?: unknown }): void {
    this.sent.push(m);
    if (m.id === undefined) return;
    const result =
      m.method === 'bridge/hello'
        ? {
            hostVersion: this.behaviour === 'old' ? '0.0.9' : '9.9.9',
            ...(this.behaviour === 'old' ? {} : { protocolVersion: PROTOCOL_VERSION }),
            backend: 'embedded',
            backends: [],
            limits: { maxOutboundFrameBytes: 1, maxInboundMessageBytes: 1, maxChunkedMessageBytes: 1 },
          }
        : {
            serverInfo: { name: 's', version: '1' },
            protocolVersion: 'p',
            supportedTransports: ['stdio'],
            capabilities: { steer: true },
          };
    if (m.method === 'initialize' && this.behaviour === 'oldAgent') {
      queueMicrotask(() => this.onMsg?.([{ id: m.id, error: OLD_AGENT }]));
      return;
    }
    queueMicrotask(() => this.onMsg?.([{ id: m.id, result }]));
  }
  disconnect(): void {}
  drop(): void {
    this.onDrop?.();
  }
}

function setup(behaviours: Behaviour[], lastError = 'Specified native messaging host not found.') {
  const ports: ScriptedPort[] = [];
  const states: ConnectionState[] = [];
  const ready: string[] = [];
  const lost: LinkLoss[] = [];
  let now = 1_000;
  const deps: HostLinkDeps = {
    connect: () => {
      const port = new ScriptedPort(behaviours[ports.length] ?? 'answer');
      ports.push(port);
      return port;
    },
    lastError: () => lastError,
    clientInfo: { name: 'test', version: '0.2.0' },
    clientTools: [],
    backend: () => undefined,
    onBatch: (m) => m,
    attach: () => {},
    onState: (s) => states.push(s),
    onReady: (_c, info) => ready.push(info.hello?.hostVersion ?? 'none'),
    onLost: (loss) => lost.push(loss),
    now: () => now,
    random: () => 0.5,
    log: () => {},
  };
  return { link: new HostLink(deps), ports, states, ready, lost, advance: (ms: number) => (now += ms) };
}

describe('HostLink', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('reports connected only after bridge/hello and initialize were answered, then sends initialized', async () => {
    const { link, ports, states, ready } = setup(['answer']);
    link.start();
    expect(link.state.status).toBe('connecting');
    await vi.runAllTimersAsync();
    expect(states.map((s) => s.status)).toEqual(['connecting', 'connected']);
    expect(ready).toEqual(['9.9.9']);
    expect(ports[0]!.sent.map((m) => m.method)).toEqual(['bridge/hello', 'initialize', 'initialized']);
    expect(link.client).toBeDefined();
  });

  it('names the older side and stops before initialize when the host speaks an older protocol', async () => {
    const { link, ports, ready } = setup(['old', 'answer']);
    link.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(link.state).toMatchObject({
      status: 'disconnected',
      skew: { older: 'host', hostVersion: '0.0.9', extensionVersion: '0.2.0' },
    });
    expect(link.state.status !== 'connected' && link.state.reason).toMatch(/host 0\.0\.9 is older than this extension/);
    expect(ports[0]!.sent.map((m) => m.method)).toEqual(['bridge/hello']);
    expect(ready).toEqual([]);
    // Once the host is updated the next attempt connects and the skew is gone.
    await vi.runAllTimersAsync();
    expect(link.state).toMatchObject({ status: 'connected' });
    expect('skew' in link.state).toBe(false);
  });

  it("says an agent is too old with the backend's own words and its update command, and retries", async () => {
    const { link, ready } = setup(['oldAgent', 'answer']);
    link.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(link.state).toMatchObject({
      status: 'disconnected',
      reason: OLD_AGENT.message,
      fix: { olderSide: 'agent', command: 'npm install -g @openai/codex@latest' },
    });
    expect(ready).toEqual([]);
    // Updated meanwhile: the next attempt connects and the advice is gone.
    await vi.runAllTimersAsync();
    expect(link.state).toMatchObject({ status: 'connected' });
    expect('fix' in link.state).toBe(false);
  });

  it("keeps the browser's reason and retries with backoff until the host answers", async () => {
    const { link, ports, states } = setup(['missing', 'missing', 'answer']);
    link.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(link.state).toMatchObject({
      status: 'disconnected',
      reason: 'Specified native messaging host not found.',
      attempt: 1,
      retryAtMs: 1_500,
    });
    expect(ports).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(500);
    expect(ports).toHaveLength(2);
    expect(link.state).toMatchObject({ status: 'disconnected', attempt: 2 });
    await vi.advanceTimersByTimeAsync(1000);
    await vi.runAllTimersAsync();
    expect(ports).toHaveLength(3);
    expect(link.state.status).toBe('connected');
    // While retrying, "connecting" still says what went wrong last.
    expect(states.filter((s) => s.status === 'connecting').at(-1)?.reason).toBe(
      'Specified native messaging host not found.',
    );
  });

  it('reconnects after a connected port drops, reporting that the host stopped and how long it had been up', async () => {
    const { link, ports, lost, advance } = setup(['answer', 'answer'], 'Native host has exited.');
    link.start();
    await vi.runAllTimersAsync();
    advance(42_000);
    ports[0]!.drop();
    await vi.advanceTimersByTimeAsync(0);
    expect(lost).toEqual([{ cause: 'host-stopped', reason: 'Native host has exited.' }]);
    expect(link.state).toMatchObject({ status: 'disconnected', reason: 'Native host has exited.', upForMs: 42_000 });
    await vi.runAllTimersAsync();
    expect(ports).toHaveLength(2);
    expect(link.state.status).toBe('connected');
  });

  it('redoes the handshake on the same port after the backend exited', async () => {
    const { link, ports, ready, lost } = setup(['answer']);
    link.start();
    await vi.runAllTimersAsync();
    link.backendExited('The "child" backend was killed by SIGKILL', 250);
    expect(link.state).toMatchObject({ status: 'connecting', reason: 'The "child" backend was killed by SIGKILL' });
    expect(link.client).toBeUndefined();
    expect(lost).toEqual([{ cause: 'backend-stopped', reason: 'The "child" backend was killed by SIGKILL' }]);
    await vi.runAllTimersAsync();
    expect(ports).toHaveLength(1);
    expect(ready).toHaveLength(2);
    expect(link.state.status).toBe('connected');
    expect(ports[0]!.sent.filter((m) => m.method === 'initialize')).toHaveLength(2);
  });

  it('reports no uptime when the host exits before it ever connected', async () => {
    const { link, lost } = setup(['missing'], 'Native host has exited.');
    link.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(link.state).toEqual({
      status: 'disconnected',
      attempt: 1,
      reason: 'Native host has exited.',
      retryAtMs: 1_500,
      sinceMs: 1_000,
    });
    expect(lost).toEqual([]);
  });

  it('is idle, shown as disconnected with no attempt and no reason, until started', () => {
    const { link, ports } = setup(['answer']);
    expect(link.phase).toEqual({ status: 'idle' });
    expect(link.state).toEqual({ status: 'disconnected', attempt: 0, sinceMs: 1_000 });
    expect(ports).toHaveLength(0);
  });

  it('ignores a handshake made stale by a backend exit and redoes it on the same port', async () => {
    const { link, ports, ready, lost } = setup(['answer']);
    link.start();
    expect(link.phase.status).toBe('handshaking');
    link.backendExited('The "child" backend exited', 250);
    await vi.advanceTimersByTimeAsync(0);
    expect(link.phase.status).toBe('backendRestart');
    expect(ready).toEqual([]);
    await vi.advanceTimersByTimeAsync(250);
    await vi.runAllTimersAsync();
    expect(link.phase.status).toBe('connected');
    expect(ready).toEqual(['9.9.9']);
    expect(lost).toEqual([]);
    expect(ports).toHaveLength(1);
    expect(ports[0]!.sent.filter((m) => m.method === 'initialize')).toHaveLength(2);
  });

  it('tries again at once when the user retries during the wait, counting attempts from zero', async () => {
    const { link, ports, states } = setup(['missing', 'answer']);
    link.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(link.phase).toMatchObject({ status: 'backoff', attempt: 1, retryAtMs: 1_500 });
    link.retryNow();
    expect(ports).toHaveLength(2);
    expect(states.at(-1)).toEqual({ status: 'connecting', attempt: 0, sinceMs: 1_000 });
    await vi.runAllTimersAsync();
    expect(link.state.status).toBe('connected');
    expect(ports).toHaveLength(2);
  });

  it('closes the old port and reconnects at once when the backend choice changes, reporting the loss', async () => {
    const { link, ports, ready, lost } = setup(['answer', 'answer']);
    link.start();
    await vi.runAllTimersAsync();
    link.restart();
    expect(lost).toEqual([{ cause: 'backend-switched', reason: 'Switching backend.' }]);
    expect(link.client).toBeUndefined();
    await vi.runAllTimersAsync();
    expect(ports).toHaveLength(2);
    expect(ready).toHaveLength(2);
    expect(link.info?.hello?.hostVersion).toBe('9.9.9');
  });
});
