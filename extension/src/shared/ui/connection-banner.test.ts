import type { VNode } from 'preact';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConnectionState, WorkerState } from '../records';
import { ConnectionBanner } from './connection-banner';

// The banner is rendered by calling it: with hooks answering their initial state, its element tree is plain data.
vi.mock('preact/hooks', () => ({ useState: <T>(initial: T) => [initial, () => {}], useEffect: () => {} }));

beforeAll(() => {
  vi.stubGlobal('chrome', { runtime: { id: 'abcdefghijklmnopabcdefghijklmnop' } });
});

const stateWith = (connection: ConnectionState): WorkerState => ({
  connection,
  backends: [],
  settings: {},
  mcp: { shared: [], clients: [] },
});
const render = (connection: ConnectionState, versions: Partial<WorkerState> = {}): VNode =>
  ConnectionBanner({ state: { ...stateWith(connection), ...versions }, linkUp: true, onRetry: () => {} }) as VNode;
const reason = 'Specified native messaging host not found.';

describe('ConnectionBanner', () => {
  it('gives each status its own element, so a retry never patches the reason of one into the parts of another', () => {
    const disconnected = render({ status: 'disconnected', attempt: 1, sinceMs: 0, reason });
    const connecting = render({ status: 'connecting', attempt: 2, sinceMs: 0, reason });
    const connected = render({ status: 'connected', attempt: 2, sinceMs: 0 });
    const keys = [disconnected.key, connecting.key, connected.key];
    expect(new Set(keys).size).toBe(3);
    expect(keys.every((k) => typeof k === 'string')).toBe(true);
  });

  it('shows the reason and the command that fixes it in the same disconnected banner', () => {
    const text = JSON.stringify(render({ status: 'disconnected', attempt: 1, sinceMs: 0, reason }).props);
    expect(text).toContain(reason);
    expect(text).toContain('"class":"command"');
  });

  it('adds a line to the connected banner while the daemon runs another version than the host, and none otherwise', () => {
    const connected: ConnectionState = { status: 'connected', attempt: 1, sinceMs: 0 };
    const pending = JSON.stringify(render(connected, { hostVersion: '0.2.0', daemonVersion: '0.1.0' }).props);
    expect(pending).toContain('"data-update":"pending"');
    expect(pending).toContain('Tether was updated to 0.2.0.');
    for (const versions of [{ hostVersion: '0.2.0', daemonVersion: '0.2.0' }, { hostVersion: '0.2.0' }]) {
      const text = JSON.stringify(render(connected, versions).props);
      expect(text).toContain('Connected');
      expect(text).not.toContain('data-update');
      expect(text).not.toContain('data-daemon');
    }
  });

  it('adds a line to the connected banner while the host serves in-process because the daemon could not run', () => {
    const connected: ConnectionState = { status: 'connected', attempt: 1, sinceMs: 0 };
    const text = JSON.stringify(render(connected, { hostVersion: '0.2.0', daemonUnavailable: 'no socket' }).props);
    expect(text).toContain('"data-daemon":"unavailable"');
    expect(text).toContain('Turns stop when the browser closes: the Tether daemon could not run (no socket)');
  });
});
