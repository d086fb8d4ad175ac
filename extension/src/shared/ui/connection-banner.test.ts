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
const render = (connection: ConnectionState): VNode =>
  ConnectionBanner({ state: stateWith(connection), linkUp: true, onRetry: () => {} }) as VNode;
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
});
