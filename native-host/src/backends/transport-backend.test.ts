import type { TransportHandlers } from '@tether/protocol';
import { TransportClosedError } from '@tether/protocol/errors';
import { describe, expect, it } from 'vitest';
import { secrets } from '../secrets';
import { connectInProcess } from './transport-backend';
import type { BackendSink } from './types';

/** A sink that records each message as its bytes and the buffer they came in. */
function recordingSink() {
  const messages: Array<{ text: string; chunk: Buffer; start: number; end: number }> = [];
  let exits = 0;
  const sink: BackendSink = {
    message: (chunk, start, end) => messages.push({ text: chunk.toString('utf8', start, end), chunk, start, end }),
    messageParts: () => undefined,
    problem: () => undefined,
    inputPressure: () => undefined,
    exit: () => exits++,
  };
  return { sink, messages, exits: () => exits };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function startServer(link: ReturnType<typeof connectInProcess>) {
  const received: unknown[] = [];
  let closes = 0;
  const handlers: TransportHandlers = { onMessage: (m) => received.push(m), onClose: () => closes++ };
  link.server.start(handlers);
  return { received, closes: () => closes };
}

describe('connectInProcess', () => {
  it('hands the messages the server sends in one tick to the sink as newline-separated ranges of one buffer, in order', async () => {
    const { sink, messages } = recordingSink();
    const link = connectInProcess(sink, () => undefined);
    startServer(link);
    for (let i = 1; i <= 3; i++) link.server.send({ method: 'item/agentMessage/delta', params: { delta: `${i} ` } });
    expect(messages).toHaveLength(0);
    await tick();
    expect(messages.map((m) => JSON.parse(m.text))).toEqual(
      [1, 2, 3].map((i) => ({ method: 'item/agentMessage/delta', params: { delta: `${i} ` } })),
    );
    expect(new Set(messages.map((m) => m.chunk)).size).toBe(1);
    expect(messages[1]!.chunk[messages[1]!.start - 1]).toBe(0x0a);
  });

  it('masks secrets in what the server sends: key shapes, secret-named fields and values the host knows', async () => {
    secrets.learn(['in-process-known-secret']);
    const { sink, messages } = recordingSink();
    const link = connectInProcess(sink, () => undefined);
    startServer(link);
    link.server.send({
      method: 'turn/completed',
      params: { turn: { error: { message: 'HTTP 401: bad key in-process-known-secret' } } },
    });
    link.server.send({
      method: 'item/completed',
      params: { item: { content: { text: 'here: sk-abcdefghijklmnopqrstuv' } } },
    });
    link.server.send({ id: 3, result: { apiKey: 'short' } });
    await tick();
    expect(messages.map((m) => JSON.parse(m.text))).toEqual([
      { method: 'turn/completed', params: { turn: { error: { message: 'HTTP 401: bad key ***' } } } },
      { method: 'item/completed', params: { item: { content: { text: 'here: sk-***' } } } },
      { id: 3, result: { apiKey: '***' } },
    ]);
  });

  it('finds the ranges of messages with non-ASCII text by their UTF-8 bytes', async () => {
    const { sink, messages } = recordingSink();
    const link = connectInProcess(sink, () => undefined);
    startServer(link);
    const texts = ['héllo', 'line\nbreak and \u2028', '日本語 🎉', 'plain'];
    for (const text of texts) link.server.send({ text });
    await tick();
    expect(messages.map((m) => JSON.parse(m.text).text)).toEqual(texts);
  });

  it('sends what an object held when it was sent, not what it holds later', async () => {
    const { sink, messages } = recordingSink();
    const link = connectInProcess(sink, () => undefined);
    startServer(link);
    const item = { id: 'item_1', content: { text: '' } };
    link.server.send({ method: 'item/started', params: { item } });
    item.content.text = 'changed after sending';
    await tick();
    expect(JSON.parse(messages[0]!.text)).toEqual({
      method: 'item/started',
      params: { item: { id: 'item_1', content: { text: '' } } },
    });
  });

  it('delivers the browser messages to the server parsed, in order, after the current tick, splitting batches', async () => {
    const { sink } = recordingSink();
    const link = connectInProcess(sink, () => undefined);
    link.send(Buffer.from('{"id":1,"method":"initialize"}'));
    const { received } = startServer(link);
    link.send(Buffer.from('[{"method":"a"},{"method":"b"}]'));
    expect(received).toEqual([]);
    await tick();
    expect(received).toEqual([{ id: 1, method: 'initialize' }, { method: 'a' }, { method: 'b' }]);
  });

  it('answers a browser message that is not JSON with a parse error and keeps going', async () => {
    const { sink, messages } = recordingSink();
    const link = connectInProcess(sink, () => undefined);
    const { received } = startServer(link);
    link.send(Buffer.from('{"id":1,'));
    link.send(Buffer.from('{"method":"ok"}'));
    await tick();
    expect(JSON.parse(messages[0]!.text)).toMatchObject({ id: null, error: { code: -32700 } });
    expect(received).toEqual([{ method: 'ok' }]);
  });

  it('makes flushed() wait while the browser is behind and resolve once it caught up', async () => {
    const { sink } = recordingSink();
    const link = connectInProcess(sink, () => undefined);
    startServer(link);
    await link.server.flushed();
    link.pause(true);
    let flushed = false;
    void link.server.flushed().then(() => (flushed = true));
    await tick();
    expect(flushed).toBe(false);
    link.pause(false);
    await tick();
    expect(flushed).toBe(true);
  });

  it('on close, still delivers what the server sent, then reports the close to both ends once', async () => {
    const { sink, messages } = recordingSink();
    let hostCloses = 0;
    const link = connectInProcess(sink, () => hostCloses++);
    const server = startServer(link);
    link.pause(true);
    const waiting = link.server.flushed();
    link.server.send({ method: 'turn/completed' });
    link.server.close();
    link.close();
    await waiting;
    expect(messages.map((m) => JSON.parse(m.text))).toEqual([{ method: 'turn/completed' }]);
    expect([hostCloses, server.closes()]).toEqual([1, 1]);
    expect(() => link.server.send({ method: 'late' })).toThrow(TransportClosedError);
  });
});
