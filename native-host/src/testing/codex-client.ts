/** A Tether client on a Codex adapter in front of a replayed Codex transcript, for the adapter's tests. */
import {
  Connection,
  createMemoryTransportPair,
  type MessageTransport,
  clientRequests,
  serverNotifications,
} from '@tether/protocol';
import { expect } from 'vitest';
import { createCodexAdapter } from '../backends/codex-adapter';
import { FIXTURES, readTranscript, ReplayAgent } from '../backends/codex-replay-agent';
import { useTempDirs } from './temp-dirs';
/** The adapter's data dir (its journal of relayed turns), one per test. */
const tempDir = useTempDirs('tether-codex-adapter-');

export interface Seen {
  method: string;
  params: Record<string, unknown>;
}

/** An adapter in front of a replayed Codex transcript, with a Tether client connected to it. */
export function setup(fixture: string, opts: { backendOptions?: Record<string, unknown> } = {}) {
  const [agentSide, adapterUpstream] = createMemoryTransportPair();
  const logs: string[] = [];
  const adapter = createCodexAdapter(adapterUpstream, {
    backendId: 'codex',
    dataDir: tempDir(),
    log: (l) => logs.push(l),
    ...(opts.backendOptions
      ? { backend: { kind: 'command', argv: ['codex', 'app-server'], dialect: 'codex', options: opts.backendOptions } }
      : {}),
  });
  const agent = new ReplayAgent(readTranscript(new URL(`codex/${fixture}.jsonl`, FIXTURES)), agentSide);
  const wire: Record<string, unknown>[] = [];
  const client = new Connection(tap(adapter, wire));
  const seen: Seen[] = [];
  // Everything the adapter emits must be valid Tether protocol.
  client.onNotification('*', (params, method) => {
    const schema = (serverNotifications as Record<string, { parse(v: unknown): unknown }>)[method];
    expect(schema, `unexpected notification ${method}`).toBeDefined();
    schema!.parse(params);
    expect(JSON.stringify(params)).not.toContain('emittedAtMs');
    seen.push({ method, params: params as Record<string, unknown> });
  });
  const init = async (capabilities: Record<string, unknown> = {}) => {
    const result = await client.request('initialize', {
      clientInfo: { name: 'tether-test', version: '1.0.0' },
      capabilities,
    });
    client.notify('initialized');
    return clientRequests.initialize.result.parse(result);
  };
  const waitFor = async (method: string, pred: (p: Record<string, unknown>) => boolean = () => true) => {
    for (let i = 0; i < 500; i++) {
      const hit = seen.find((s) => s.method === method && pred(s.params));
      if (hit) return hit.params;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error(`no ${method} notification; saw ${seen.map((s) => s.method).join(', ')}`);
  };
  return { agent, client, seen, init, waitFor, logs, wire };
}

/** Records every message the adapter sends to the client, in wire order. */
function tap(transport: MessageTransport, wire: Record<string, unknown>[]): MessageTransport {
  return {
    start: (h) =>
      transport.start({
        ...h,
        onMessage: (m) => {
          wire.push(m as Record<string, unknown>);
          h.onMessage(m);
        },
      }),
    send: (m) => transport.send(m),
    close: () => transport.close(),
  };
}
