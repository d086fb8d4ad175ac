/**
 * Every JSON example of seed 000 (the protocol's origin; copied literally in seed-examples.fixtures.ts) must parse as
 * the message it is and re-serialise to equal JSON, unknown fields (runId, runEventId) included.
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { Connection, serverInbound } from './connection';
import { createMemoryTransportPair } from './memory-transport';
import { clientNotifications, clientRequests, serverNotifications, serverRequests } from './methods';
import { classifyMessage, NotificationEnvelope, RequestEnvelope, ResultEnvelope } from './schema/envelope';
import { seedExamples as examples, type SeedExample } from './seed-examples.fixtures';
import { rawPeer } from './test-support';

const requestRows: Record<string, { params: z.ZodType; result: z.ZodType }> = { ...clientRequests, ...serverRequests };
const notificationRows: Record<string, z.ZodType> = { ...clientNotifications, ...serverNotifications };

/** Parses a seed message with its envelope and its row's schema; returns the message rebuilt from the parsed parts. */
function parseSeed(example: SeedExample): Record<string, unknown> {
  const raw: unknown = JSON.parse(example.json);
  if (example.kind === 'request') {
    const envelope = RequestEnvelope.parse(raw);
    expect(envelope.method).toBe(example.method);
    const params = requestRows[example.method]!.params.parse(envelope.params);
    return { ...envelope, params };
  }
  if (example.kind === 'notification') {
    const envelope = NotificationEnvelope.parse(raw);
    expect(envelope.method).toBe(example.method);
    const params = notificationRows[example.method]!.parse(envelope.params);
    return params === undefined ? { ...envelope } : { ...envelope, params };
  }
  const envelope = ResultEnvelope.parse(raw);
  const result = requestRows[example.method]!.result.parse(envelope.result);
  return { ...envelope, result };
}

describe('seed 000 examples', () => {
  it('copies all 21 examples of the seed', () => {
    expect(examples).toHaveLength(21);
  });

  for (const example of examples) {
    it(`parses the ${example.name} and re-serialises it to equal JSON`, () => {
      expect(classifyMessage(JSON.parse(example.json))).toBe(example.kind === 'response' ? 'result' : example.kind);
      const parsed = parseSeed(example);
      expect(parsed).toEqual(JSON.parse(example.json));
      expect(JSON.parse(JSON.stringify(parsed))).toEqual(JSON.parse(example.json));
    });
  }

  it('omits "jsonrpc" in every example, as the wire format does', () => {
    for (const example of examples) expect(JSON.parse(example.json)).not.toHaveProperty('jsonrpc');
  });

  it('delivers the client requests of the seed to a validating Connection with their params unchanged', async () => {
    const [a, b] = createMemoryTransportPair();
    const server = new Connection(a, { inbound: serverInbound });
    const seen: unknown[] = [];
    server.setFallbackRequestHandler(() => {
      throw new Error('every seed request has a row');
    });
    for (const method of Object.keys(clientRequests)) {
      server.onRequest(method, (params) => {
        seen.push(params);
        return {};
      });
    }
    const client = rawPeer(b);
    const requests = examples.filter((e) => e.kind === 'request' && e.method in clientRequests);
    for (const e of requests) client.send(JSON.parse(e.json));
    for (const e of requests) {
      const answer = (await client.next()) as { id: unknown; result?: unknown };
      expect(answer).toEqual({ id: (JSON.parse(e.json) as { id: unknown }).id, result: {} });
    }
    expect(seen).toEqual(requests.map((e) => (JSON.parse(e.json) as { params: unknown }).params));
    server.close();
  });
});
