import { Writable } from 'node:stream';
import { NativeFrameDecoder } from '@tether/protocol/codec';
import { setImmediate as tick } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { FakeBackend, twoBackendConfig } from '../testing/fake-backend';
import { restartDelayMs } from './backend-supervisor';
import { MAX_BATCH_MESSAGES } from './batch';
import { Bridge } from './bridge';
import { FrameWriter } from './frame-writer';

function setup(options: { holdStop?: boolean } = {}) {
  const config = twoBackendConfig();
  let out = Buffer.alloc(0);
  const writer = new FrameWriter(
    new Writable({
      write(chunk: Buffer, _e, cb) {
        out = Buffer.concat([out, chunk]);
        cb();
      },
    }),
  );
  const backends: FakeBackend[] = [];
  let now = 0;
  const logs: string[] = [];
  const bridge = new Bridge({
    config,
    writer,
    log: (line) => logs.push(line),
    hostVersion: '9.9.9',
    protocolVersion: '2099-01-01',
    setInputPaused: () => undefined,
    createBackend: (id, c) => {
      const b = new FakeBackend(id, c, options.holdStop);
      backends.push(b);
      return b;
    },
    now: () => now,
  });
  const send = (message: unknown) => {
    const bytes = Buffer.from(`....${JSON.stringify(message)}`);
    bridge.fromBrowserRange(bytes, 4, bytes.length);
  };
  const received = async (): Promise<Array<Record<string, any>>> => {
    await writer.whenIdle();
    const messages: Array<Record<string, any>> = [];
    const decoder = new NativeFrameDecoder({
      message: (m) => messages.push(m as Record<string, any>),
      error: (error) => {
        throw error;
      },
    });
    decoder.push(out);
    decoder.end();
    return messages;
  };
  /** Sends one frame's payload as raw text. */
  const sendText = (text: string | Buffer) => {
    const bytes = Buffer.concat([Buffer.from('....'), Buffer.from(text)]);
    bridge.fromBrowserRange(bytes, 4, bytes.length);
  };
  return { bridge, backends, send, sendText, received, logs, advance: (ms: number) => (now += ms) };
}

describe('Bridge', () => {
  it('starts the default backend on the first message and passes messages through untouched', async () => {
    const t = setup();
    t.send({ id: 1, method: 'initialize', params: { clientInfo: { name: 'x' } } });
    expect(t.backends).toHaveLength(1);
    expect(t.backends[0]!.received).toEqual([{ id: 1, method: 'initialize', params: { clientInfo: { name: 'x' } } }]);
    t.backends[0]!.emit({ id: 1, result: { ok: true } });
    expect(await t.received()).toEqual([{ id: 1, result: { ok: true } }]);
  });

  it('fails only the unanswered requests with -32050 when the backend dies, after bridge/backend/exited', async () => {
    const t = setup();
    t.send({ id: 1, method: 'thread/start' });
    t.send({ id: 'two', method: 'turn/start' });
    t.send({ method: 'initialized' });
    t.backends[0]!.emit({ id: 1, result: {} });
    t.backends[0]!.crash();
    const messages = await t.received();
    expect(messages[1]).toMatchObject({
      method: 'bridge/backend/exited',
      params: { backend: 'a', code: 1, stderrTail: ['boom'], restartInMs: 0 },
    });
    expect(messages.slice(2)).toEqual([
      {
        id: 'two',
        error: {
          code: -32050,
          message:
            'Backend unavailable: turn/start was not answered: The "a" backend exited with code 1 (its last stderr line: "boom")',
          data: { backend: 'a', method: 'turn/start', code: 1, signal: null },
        },
      },
    ]);
  });

  it('restarts on the next request, waiting longer after each quick crash', async () => {
    expect([1, 2, 3, 4, 9].map(restartDelayMs)).toEqual([0, 250, 500, 1000, 8000]);
    const t = setup();
    t.send({ id: 1, method: 'x' });
    t.backends[0]!.crash();
    t.send({ id: 2, method: 'x' });
    expect(t.backends).toHaveLength(2);
    expect(t.backends[1]!.received).toEqual([{ id: 2, method: 'x' }]);
    t.backends[1]!.crash();
    const exited = (await t.received()).filter((m) => m.method === 'bridge/backend/exited');
    expect(exited.map((m) => m.params.restartInMs)).toEqual([0, 250]);
  });

  it('switches backend on bridge/hello, reports the backends and limits, then starts the chosen one', async () => {
    const t = setup();
    t.send({ id: 1, method: 'bridge/hello', params: { backend: 'b' } });
    await tick();
    const [hello] = await t.received();
    expect(hello).toMatchObject({
      id: 1,
      result: {
        hostVersion: '9.9.9',
        protocolVersion: '2099-01-01',
        backend: 'b',
        backends: [{ id: 'embedded', kind: 'embedded' }, { id: 'a', isDefault: true }, { id: 'b' }],
        limits: { maxOutboundFrameBytes: 1_048_576 },
      },
    });
    // The chosen backend starts right after the answer has been written.
    await tick();
    await tick();
    expect(t.backends.map((b) => b.id)).toEqual(['b']);
  });

  it('rejects malformed bridge/hello params with -32602 naming the field', async () => {
    const t = setup();
    t.send({ id: 1, method: 'bridge/hello', params: { backend: 7 } });
    t.send({ id: 2, method: 'bridge/hello', params: { clientInfo: { name: 'x' } } });
    await tick();
    const [a, b] = await t.received();
    expect(a).toMatchObject({
      id: 1,
      error: { code: -32602, message: 'Invalid params for bridge/hello at backend: expected a string' },
    });
    expect(b).toMatchObject({
      id: 2,
      error: { code: -32602, data: { issues: [{ path: ['clientInfo', 'version'] }] } },
    });
  });

  it('answers bridge/hello naming an inherited member such as "__proto__" with -32602 and keeps serving the current backend', async () => {
    const t = setup();
    t.send({ id: 1, method: 'x' });
    const names = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
    for (const [i, backend] of names.entries()) t.send({ id: 10 + i, method: 'bridge/hello', params: { backend } });
    for (let k = 0; k < 4; k++) await tick();
    t.send({ id: 2, method: 'y' });
    const answers = await t.received();
    for (const [i, name] of names.entries()) {
      const answer = answers.find((m) => m.id === 10 + i);
      expect(answer?.error.code).toBe(-32602);
      expect(answer?.error.message).toContain(`Unknown backend "${name}": the configured backends are embedded, a, b`);
      expect(answer?.error.message).toContain('reserved name');
    }
    expect(t.backends.map((b) => b.id)).toEqual(['a']);
    expect(t.backends[0]!.stopped).toBe(false);
    expect(t.backends[0]!.received).toEqual([
      { id: 1, method: 'x' },
      { id: 2, method: 'y' },
    ]);
  });

  it('answers bridge/backend/restart after stopping the running backend', async () => {
    const t = setup();
    t.send({ id: 1, method: 'x' });
    t.send({ id: 2, method: 'bridge/backend/restart' });
    await tick();
    expect(t.backends[0]!.stopped).toBe(true);
    expect(t.backends).toHaveLength(2);
    const messages = await t.received();
    expect(messages).toContainEqual({ id: 2, result: { backend: 'a' } });
    expect(messages.find((m) => m.id === 1)?.error.message).toContain('restarted at the browser');
    expect(messages.some((m) => m.method === 'bridge/backend/exited')).toBe(false);
  });

  it("sends a request that arrives while backends are being switched to the new one, and fails only the old one's", async () => {
    const t = setup({ holdStop: true });
    t.send({ id: 1, method: 'x' });
    t.send({ id: 2, method: 'bridge/hello', params: { backend: 'b' } });
    t.send({ id: 3, method: 'initialize' });
    t.backends[0]!.finishStop!();
    for (let k = 0; k < 4; k++) await tick();
    expect(t.backends.map((b) => b.id)).toEqual(['a', 'b']);
    expect(t.backends[1]!.received).toEqual([{ id: 3, method: 'initialize' }]);
    t.backends[1]!.emit({ id: 3, result: {} });
    const messages = await t.received();
    expect(messages.find((m) => m.id === 1)?.error.code).toBe(-32050);
    expect(messages.filter((m) => m.id === 3)).toEqual([{ id: 3, result: {} }]);
  });

  it('answers unknown bridge requests with -32601 and non-JSON with -32700', async () => {
    const t = setup();
    t.send({ id: 5, method: 'bridge/nope' });
    t.bridge.fromBrowser([Buffer.from('nope')], 4);
    await tick();
    const messages = await t.received();
    expect(messages).toContainEqual(
      expect.objectContaining({ id: 5, error: expect.objectContaining({ code: -32601 }) }),
    );
    expect(messages).toContainEqual(
      expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32700 }) }),
    );
    expect(t.backends).toHaveLength(0);
  });

  it('answers an empty batch from the browser with -32600 instead of dropping it silently', async () => {
    const t = setup();
    t.send([]);
    const messages = await t.received();
    expect(messages).toEqual([expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32600 }) })]);
  });

  it('answers a request whose method holds an invalid escape with -32700 instead of throwing', async () => {
    const t = setup();
    const bytes = Buffer.from('{"id":1,"method":"bridge/\\q"}');
    expect(() => t.bridge.fromBrowserRange(bytes, 0, bytes.length)).not.toThrow();
    const messages = await t.received();
    expect(messages).toEqual([expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32700 }) })]);
  });
});

const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const refusal = (code: number) => expect.objectContaining({ id: null, error: expect.objectContaining({ code }) });

describe('Bridge batches from the browser', () => {
  it('refuses a batch inside a batch at the first level, with -32600 and id null, and routes the other members', async () => {
    const t = setup();
    t.sendText(`[[{"id":1,"method":"x"}],{"id":2,"method":"y"},${deep(5000)}]`);
    expect(t.backends[0]!.received).toEqual([{ id: 2, method: 'y' }]);
    const messages = await t.received();
    expect(messages).toEqual([refusal(-32600), refusal(-32600)]);
    expect(messages[0]!.error.message).toBe(
      'Invalid request: a batch cannot contain a batch; send its messages as members of one batch',
    );
    expect(t.logs).toContain(
      'refused a message from the browser: Invalid request: a batch cannot contain a batch; send its messages as members of one batch',
    );
  });

  it('answers a frame of 200 KB of "[" with one -32700 and logs it, in linear time', async () => {
    const t = setup();
    expect(() => t.sendText('['.repeat(200_000))).not.toThrow();
    expect(await t.received()).toEqual([refusal(-32700)]);
    expect(t.logs.some((l) => l.includes('not well-formed'))).toBe(true);
    expect(t.backends).toHaveLength(0);
  });

  it('passes a member holding a 100,000-deep value to the backend as its own bytes, untouched', async () => {
    const t = setup();
    const member = `{"id":3,"method":"x","params":${deep(100_000)}}`;
    t.sendText(`[${member}]`);
    const sent = t.backends[0]!.received;
    expect(sent).toHaveLength(1);
    expect(JSON.stringify((sent[0] as { id: number }).id)).toBe('3');
    expect(await t.received()).toEqual([]);
  });

  it('answers each member that is not a message object with its own -32600', async () => {
    const t = setup();
    t.sendText('[1,"two",null,{"method":"ok"}]');
    expect(await t.received()).toEqual([refusal(-32600), refusal(-32600), refusal(-32600)]);
    expect(t.backends[0]!.received).toEqual([{ method: 'ok' }]);
  });

  it(`answers a batch of more than ${MAX_BATCH_MESSAGES} messages with one -32600 and routes none of it`, async () => {
    const t = setup();
    t.sendText(`[${Array.from({ length: MAX_BATCH_MESSAGES + 1 }, () => '{"method":"n"}').join(',')}]`);
    expect(await t.received()).toEqual([refusal(-32600)]);
    expect(t.backends).toHaveLength(0);
  });

  it('answers a malformed batch with one -32700 and routes none of it', async () => {
    const t = setup();
    t.sendText('[{"method":"a"},]');
    t.sendText('[{"method":"a"} {"method":"b"}]');
    expect(await t.received()).toEqual([refusal(-32700), refusal(-32700)]);
    expect(t.backends).toHaveLength(0);
  });

  it('answers a bridge request holding invalid UTF-8 with -32700 naming UTF-8', async () => {
    const t = setup();
    t.sendText(
      Buffer.concat([
        Buffer.from('{"id":1,"method":"bridge/hello","params":{"clientInfo":{"name":"'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('","version":"1"}}}'),
      ]),
    );
    const [answer] = await t.received();
    expect(answer).toEqual(refusal(-32700));
    expect(answer!.error.message).toMatch(/^Parse error: Message of \d+ bytes is not valid UTF-8/);
  });
});
