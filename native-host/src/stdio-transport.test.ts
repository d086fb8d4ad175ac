import { spawn } from 'node:child_process';
import { PassThrough, Writable } from 'node:stream';
import { FrameError, TransportClosedError, TransportError, type TransportHandlers } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import { createJsonlTransport } from './stdio-transport';

/** Handlers that record everything and resolve `closed` with onClose's error. */
function recorder() {
  const messages: unknown[] = [];
  const decodeErrors: Error[] = [];
  let resolveClosed!: (e: Error | undefined) => void;
  const closed = new Promise<Error | undefined>((r) => (resolveClosed = r));
  let closes = 0;
  const waiters: { count: number; resolve: () => void }[] = [];
  const handlers: TransportHandlers = {
    onMessage: (m) => {
      messages.push(m);
      for (const w of waiters) if (messages.length >= w.count) w.resolve();
    },
    onDecodeError: (e) => decodeErrors.push(e),
    onClose: (e) => {
      closes++;
      resolveClosed(e);
    },
  };
  const received = (count: number) => new Promise<void>((resolve) => waiters.push({ count, resolve }));
  return { messages, decodeErrors, closed, handlers, received, closes: () => closes };
}

/** Collects everything written to a writable as text. */
function sinkText(stream: PassThrough): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    stream.setEncoding('utf8');
    stream.on('data', (c: string) => (text += c));
    stream.on('end', () => resolve(text));
  });
}

describe('createJsonlTransport', () => {
  it('delivers messages split across chunks, reports bad lines, and closes when the input ends', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const rec = recorder();
    createJsonlTransport(input, output).start(rec.handlers);
    // "é" is 0xc3 0xa9 in UTF-8: split between two chunks.
    input.write(Buffer.concat([Buffer.from('{"id":1,"result":{"t":"h'), Buffer.from([0xc3])]));
    input.write(Buffer.from([0xa9]));
    input.write('"}}\nnot json\r\n[{"method":"a"},{"method":"b"}]\n{"id":2}');
    input.end();
    expect(await rec.closed).toBeUndefined();
    expect(rec.messages).toEqual([{ id: 1, result: { t: 'hé' } }, { method: 'a' }, { method: 'b' }, { id: 2 }]);
    expect(rec.decodeErrors).toHaveLength(1);
    expect(rec.decodeErrors[0]).toBeInstanceOf(FrameError);
    expect(rec.closes()).toBe(1);
  });

  it('writes one line per message and ends the writable on close()', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const text = sinkText(output);
    const rec = recorder();
    const t = createJsonlTransport(input, output);
    t.start(rec.handlers);
    t.send({ id: 1, method: 'initialize', params: { text: 'a\nb' } });
    t.send([{ method: 'x' }]);
    t.close();
    t.close();
    expect(await text).toBe('{"id":1,"method":"initialize","params":{"text":"a\\nb"}}\n[{"method":"x"}]\n');
    expect(await rec.closed).toBeUndefined();
    expect(rec.closes()).toBe(1);
    expect(() => t.send({})).toThrow(TransportClosedError);
  });

  it('queues while the writable is full and writes everything in order, never past a false write()', async () => {
    const chunks: string[] = [];
    let full = false;
    let writesWhileFull = 0;
    // A slow consumer with a tiny buffer: write() returns false almost every time.
    const slow = new Writable({
      highWaterMark: 64,
      write(chunk: Buffer, _enc, done) {
        chunks.push(chunk.toString());
        setImmediate(done);
      },
    });
    const realWrite = slow.write.bind(slow) as (chunk: Uint8Array, cb?: (e?: Error | null) => void) => boolean;
    slow.write = ((chunk: Uint8Array, cb?: (e?: Error | null) => void) => {
      if (full) writesWhileFull++;
      const ok = realWrite(chunk, cb);
      full = !ok;
      return ok;
    }) as typeof slow.write;
    slow.on('drain', () => (full = false));
    const input = new PassThrough();
    const rec = recorder();
    const t = createJsonlTransport(input, slow);
    t.start(rec.handlers);
    for (let i = 0; i < 500; i++) t.send({ i, pad: 'x'.repeat(i % 50) });
    await t.flushed();
    expect(writesWhileFull).toBe(0);
    const lines = chunks
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { i: number });
    expect(lines.map((l) => l.i)).toEqual(Array.from({ length: 500 }, (_, i) => i));
    t.close();
    await new Promise((r) => slow.on('finish', r));
  });

  it('ends the writable only after the queued messages are written', async () => {
    const input = new PassThrough();
    const output = new PassThrough({ highWaterMark: 16 });
    const t = createJsonlTransport(input, output);
    t.start(recorder().handlers);
    for (let i = 0; i < 100; i++) t.send({ i });
    t.close();
    const text = await sinkText(output);
    expect(text.split('\n').filter(Boolean)).toHaveLength(100);
  });

  it('closes with a TransportError when the input stream fails', async () => {
    const input = new PassThrough();
    const rec = recorder();
    createJsonlTransport(input, new PassThrough()).start(rec.handlers);
    input.destroy(new Error('boom'));
    const error = await rec.closed;
    expect(error).toBeInstanceOf(TransportError);
    expect(error?.message).toContain('boom');
  });

  it('releases flushed() and closes with a TransportError when a write fails', async () => {
    const failing = new Writable({
      highWaterMark: 1,
      write(_chunk, _enc, done) {
        setImmediate(() => done(new Error('pipe is gone')));
      },
    });
    const rec = recorder();
    const t = createJsonlTransport(new PassThrough(), failing, { name: 'agent' });
    t.start(rec.handlers);
    for (let i = 0; i < 10; i++) t.send({ i });
    await t.flushed();
    const error = await rec.closed;
    expect(error).toBeInstanceOf(TransportError);
    expect(error?.message).toBe('Writing to the agent failed: pipe is gone');
  });

  it('talks to a real child process over its stdin and stdout', async () => {
    // The child echoes every line back with "echo": true added.
    const child = spawn(
      process.execPath,
      [
        '-e',
        `let b='';process.stdin.setEncoding('utf8');process.stdin.on('data',c=>{b+=c;let i;while((i=b.indexOf('\\n'))>=0){const l=b.slice(0,i);b=b.slice(i+1);process.stdout.write(JSON.stringify({...JSON.parse(l),echo:true})+'\\n')}});`,
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    const rec = recorder();
    const t = createJsonlTransport(child.stdout, child.stdin, { name: 'echo child' });
    t.start(rec.handlers);
    const big = 'ü'.repeat(300_000);
    const three = rec.received(3);
    t.send({ id: 1, text: 'hi' });
    t.send({ id: 2, text: big });
    t.send({ id: 3 });
    await three;
    // Closing ends the child's stdin, so the child exits.
    const exited = new Promise((r) => child.on('exit', r));
    t.close();
    expect(await exited).toBe(0);
    expect(rec.messages).toEqual([
      { id: 1, text: 'hi', echo: true },
      { id: 2, text: big, echo: true },
      { id: 3, echo: true },
    ]);
  });

  it('closes exactly once when the child exits, even if a write to it then fails', async () => {
    const child = spawn(process.execPath, ['-e', 'process.exit(0)'], { stdio: ['pipe', 'pipe', 'inherit'] });
    const rec = recorder();
    const t = createJsonlTransport(child.stdout, child.stdin, { name: 'short-lived child' });
    t.start(rec.handlers);
    await new Promise((r) => child.on('exit', r));
    // Either stdout's end or the failing write closes the transport; it closes exactly once.
    try {
      t.send({ id: 1, pad: 'x'.repeat(100_000) });
    } catch (e) {
      expect(e).toBeInstanceOf(TransportClosedError);
    }
    await rec.closed;
    expect(rec.closes()).toBe(1);
  });
});
