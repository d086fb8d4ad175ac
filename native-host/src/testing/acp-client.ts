/** A Tether client on an ACP adapter, for the adapter's tests: in front of the scripted ACP agent or any transport. */
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import {
  clientRequests,
  Connection,
  type createMemoryTransportPair,
  type Item,
  serverNotifications,
} from '@tether/protocol';
import { afterEach, expect } from 'vitest';
import { createAcpAdapter } from '../backends/acp-adapter';
import { FIXTURES } from '../backends/codex-replay-agent';
import { createJsonlTransport } from '../stdio-transport';

const AGENT = fileURLToPath(new URL('acp-agent.mjs', FIXTURES));
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** A notification the client received. */
export interface Seen {
  method: string;
  params: Record<string, unknown>;
}

/** A Tether client on an ACP adapter in front of `upstream`. */
export function connect(
  upstream: ReturnType<typeof createJsonlTransport> | ReturnType<typeof createMemoryTransportPair>[0],
  dataDir: string,
) {
  const adapter = createAcpAdapter(upstream, { backendId: 'scripted', dataDir, log: () => undefined });
  const client = new Connection(adapter);
  const seen: Seen[] = [];
  client.onNotification('*', (params, method) => {
    const schema = (serverNotifications as Record<string, { parse(v: unknown): unknown }>)[method];
    expect(schema, `unexpected notification ${method}`).toBeDefined();
    schema!.parse(params);
    seen.push({ method, params: params as Record<string, unknown> });
  });
  const waitFor = async (method: string, pred: (p: Record<string, unknown>) => boolean = () => true, from = 0) => {
    for (let i = 0; i < 1000; i++) {
      const hit = seen.slice(from).find((s) => s.method === method && pred(s.params));
      if (hit) return hit.params;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`no ${method}; saw ${seen.map((s) => s.method).join(', ')}`);
  };
  const init = async () => {
    const result = clientRequests.initialize.result.parse(
      await client.request('initialize', { clientInfo: { name: 'test', version: '1' } }),
    );
    client.notify('initialized');
    return result;
  };
  const startThread = async () =>
    clientRequests['thread/start'].result.parse(await client.request('thread/start', { cwd: tmpdir() })).thread;
  /** Runs one turn to its end and returns its turn/completed params. */
  const turn = async (threadId: string, text: string) => {
    const from = seen.length;
    const started = clientRequests['turn/start'].result.parse(
      await client.request('turn/start', { threadId, input: [{ text }] }),
    );
    return {
      turnId: started.turn.id,
      done: () => waitFor('turn/completed', (p) => (p.turn as { id: string }).id === started.turn.id, from),
      from,
    };
  };
  cleanups.push(() => client.close());
  return { client, seen, waitFor, init, startThread, turn };
}

/** The scripted agent as a child process. */
export function scriptedAgent(dataDir: string, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [AGENT], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  cleanups.push(() => child.kill());
  return {
    ...connect(createJsonlTransport(child.stdout, child.stdin, { name: 'scripted acp agent' }), dataDir),
    child,
  };
}

/** The items completed in `seen` from `from` on. */
export const items = (seen: Seen[], from = 0) =>
  seen
    .slice(from)
    .filter((s) => s.method === 'item/completed')
    .map((s) => s.params.item as Item);
