import { ChunkAssembler, Redactor } from '@tether/protocol';
import { BROWSER_MAX_FRAME_BYTES, FrameSplitter, wholePayloads } from '@tether/protocol/codec';
import { type Socket, connect, createServer } from 'node:net';
import { Writable } from 'node:stream';
import { setImmediate as tick } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { FrameWriter } from './frame-writer';

const text = new TextDecoder();

/** A writable that records frames; with `hold`, write callbacks wait until release() (a slow browser). */
function sink(options: { hold?: boolean; highWaterMark?: number } = {}) {
  let bytes = Buffer.alloc(0);
  const held: Array<() => void> = [];
  const out = new Writable({
    highWaterMark: options.highWaterMark ?? 16 * 1024,
    write(chunk: Buffer, _enc, cb) {
      bytes = Buffer.concat([bytes, chunk]);
      if (options.hold) held.push(cb);
      else cb();
    },
  });
  const frames = (): string[] => {
    const result: string[] = [];
    const splitter = new FrameSplitter(
      wholePayloads((payload) => result.push(text.decode(payload))),
      { maxFrameBytes: BROWSER_MAX_FRAME_BYTES },
    );
    splitter.push(bytes);
    splitter.end();
    return result;
  };
  const release = (): void => {
    for (const cb of held.splice(0)) cb();
  };
  return { out, frames, release };
}

const msg = (i: number) => JSON.stringify({ method: 'item/agentMessage/delta', params: { delta: `d${i}` } });
const bytes = (text: string) => [Buffer.from(text)];

describe('FrameWriter', () => {
  it('writes a lone message as a plain frame on the next turn of the event loop', async () => {
    const s = sink();
    const writer = new FrameWriter(s.out);
    writer.enqueue(bytes(msg(1)), msg(1).length);
    expect(s.frames()).toEqual([]);
    await tick();
    expect(s.frames()).toEqual([msg(1)]);
  });

  it('packs messages queued in the same tick into one array frame, in order', async () => {
    const s = sink();
    const writer = new FrameWriter(s.out);
    for (let i = 0; i < 5; i++) writer.enqueue(bytes(msg(i)), msg(i).length);
    await writer.whenIdle();
    expect(s.frames()).toEqual([`[${[0, 1, 2, 3, 4].map(msg).join(',')}]`]);
    expect(JSON.parse(s.frames()[0]!)).toHaveLength(5);
    expect(writer.stats).toMatchObject({ frames: 1, messages: 5, batchedFrames: 1 });
  });

  it('takes messages as ranges of a larger buffer, mixed with whole buffers, in order', async () => {
    const s = sink();
    const writer = new FrameWriter(s.out);
    const chunk = Buffer.from(`${msg(0)}\n${msg(1)}\n`);
    writer.enqueueRange(chunk, 0, msg(0).length);
    writer.enqueue(bytes(msg(9)), msg(9).length);
    writer.enqueueRange(chunk, msg(0).length + 1, chunk.length - 1);
    await writer.whenIdle();
    expect(s.frames()).toEqual([`[${msg(0)},${msg(9)},${msg(1)}]`]);
  });

  it('joins consecutive lines of one read into one batch without copying them, and keeps the count of messages', async () => {
    const s = sink();
    const writer = new FrameWriter(s.out);
    const lines = [0, 1, 2].map(msg);
    const chunk = Buffer.from(`${lines.join('\n')}\n`);
    let at = 0;
    for (const line of lines) {
      writer.enqueueRange(chunk, at, at + line.length);
      at += line.length + 1;
    }
    await writer.whenIdle();
    expect(s.frames()).toEqual([`[${lines.join(',')}]`]);
    expect(writer.stats).toMatchObject({ frames: 1, messages: 3, batchedFrames: 1 });
  });

  it('never lets a packed frame pass the frame limit', async () => {
    const s = sink();
    const writer = new FrameWriter(s.out, { maxFrameBytes: 200 });
    for (let i = 0; i < 40; i++) writer.enqueue(bytes(msg(i)), msg(i).length);
    await writer.whenIdle();
    const frames = s.frames();
    expect(frames.length).toBeGreaterThan(1);
    for (const f of frames) expect(Buffer.byteLength(f)).toBeLessThanOrEqual(200);
    expect(frames.flatMap((f) => (f.startsWith('[') ? (JSON.parse(f) as unknown[]) : [JSON.parse(f)]))).toHaveLength(
      40,
    );
  });

  it('merges a batch from the backend into the frame instead of nesting arrays', async () => {
    const s = sink();
    const writer = new FrameWriter(s.out);
    const batch = `[${msg(1)},${msg(2)}]`;
    writer.enqueue(bytes(msg(0)), msg(0).length);
    writer.enqueue(bytes(batch), batch.length, true);
    writer.enqueue(bytes('[ ]'), 3, true);
    await writer.whenIdle();
    expect(JSON.parse(s.frames()[0]!)).toEqual([0, 1, 2].map((i) => JSON.parse(msg(i))));
  });

  it('splits a message over the limit into bridge/chunk pieces that reassemble exactly', async () => {
    const s = sink();
    const writer = new FrameWriter(s.out, { maxFrameBytes: 1000 });
    const big = JSON.stringify({ id: 1, result: { text: 'é"\\'.repeat(1000) } });
    writer.enqueue(bytes(big), Buffer.byteLength(big));
    await writer.whenIdle();
    const assembler = new ChunkAssembler();
    let whole: string | undefined;
    for (const f of s.frames()) {
      expect(Buffer.byteLength(f)).toBeLessThanOrEqual(1000);
      for (const m of [JSON.parse(f)].flat()) whole = assembler.accept(m.params) ?? whole;
    }
    expect(whole).toBe(big);
  });

  it('coalesces what piles up while the browser is slow, and reports the pressure', async () => {
    const s = sink({ hold: true, highWaterMark: 64 });
    const pressure: boolean[] = [];
    const writer = new FrameWriter(s.out, { highWaterBytes: 1000, onPressure: (high) => pressure.push(high) });
    writer.enqueue(bytes(msg(0)), msg(0).length);
    await tick();
    for (let i = 1; i <= 100; i++) writer.enqueue(bytes(msg(i)), msg(i).length);
    await tick();
    expect(s.frames()).toHaveLength(1);
    expect(pressure).toEqual([true]);
    s.release();
    await tick();
    s.release();
    await writer.whenIdle();
    const frames = s.frames();
    expect(frames).toHaveLength(2);
    expect(JSON.parse(frames[1]!)).toHaveLength(100);
    expect(pressure).toEqual([true, false]);
  });

  it("masks secrets in the host's own messages, whatever their shape", async () => {
    const s = sink();
    const writer = new FrameWriter(s.out, { redactor: new Redactor(['shapeless-known-value']) });
    writer.enqueueText(
      JSON.stringify({
        method: 'bridge/backend/exited',
        params: { stderrTail: ['auth failed: shapeless-known-value', 'key sk-abcdefghijklmnop1234'] },
      }),
    );
    await writer.whenIdle();
    expect(JSON.parse(s.frames()[0]!)).toEqual({
      method: 'bridge/backend/exited',
      params: { stderrTail: ['auth failed: ***', 'key sk-***'] },
    });
  });

  it('masks a known secret value in a message passed through from a backend, and leaves other messages byte for byte', async () => {
    const s = sink();
    const writer = new FrameWriter(s.out, { redactor: new Redactor(['pass"through-secret']) });
    const chunk = Buffer.from(
      `${msg(1)}\n${JSON.stringify({ id: 1, error: { message: 'bad key pass"through-secret' } })}\n${msg(2)}`,
    );
    const first = msg(1).length;
    const second = chunk.indexOf('\n', first + 1);
    writer.enqueueRange(chunk, 0, first);
    writer.enqueueRange(chunk, first + 1, second);
    writer.enqueueRange(chunk, second + 1, chunk.length);
    const split = [Buffer.from('[{"id":2,"result":{"t":"pass\\"thr'), Buffer.from('ough-secret"}}]')];
    writer.enqueue(split, split[0]!.length + split[1]!.length, true);
    await writer.whenIdle();
    const text = s.frames().join('\n');
    expect(text).not.toContain('through-secret');
    const messages = s.frames().flatMap((f) => [JSON.parse(f)].flat());
    expect(messages).toEqual([
      JSON.parse(msg(1)),
      { id: 1, error: { message: 'bad key ***' } },
      JSON.parse(msg(2)),
      { id: 2, result: { t: '***' } },
    ]);
  });
});

describe('FrameWriter with lines framing (the daemon side of a relay)', () => {
  it('writes one JSON text a line, a batch as one array line, and never chunks a message over 1 MiB', async () => {
    let written = '';
    const out = new Writable({
      write(chunk: Buffer, _enc, cb) {
        written += chunk.toString('utf8');
        cb();
      },
    });
    const writer = new FrameWriter(out, { framing: 'lines' });
    writer.enqueue(bytes(msg(1)), msg(1).length);
    const read = Buffer.from(`${msg(2)}\n${msg(3)}\n`);
    writer.enqueueRange(read, 0, msg(2).length);
    writer.enqueueRange(read, msg(2).length + 1, read.length - 1);
    const batch = `[${msg(4)},${msg(5)}]`;
    writer.enqueue(bytes(batch), batch.length, true);
    const big = JSON.stringify({ method: 'x', params: { text: 'a'.repeat(2 * 1024 * 1024) } });
    writer.enqueueText(big);
    await writer.whenIdle();
    const lines = written.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      JSON.parse(msg(1)),
      [JSON.parse(msg(2)), JSON.parse(msg(3))],
      [JSON.parse(msg(4)), JSON.parse(msg(5))],
      JSON.parse(big),
    ]);
    expect(writer.stats.chunkedMessages).toBe(0);
  });
});

describe('FrameWriter over a socket whose peer went away', () => {
  /** The daemon's side of a relay connection, once the relay has closed it (no 'error': the peer just left). */
  async function closedByPeer(): Promise<{ socket: Socket; done: () => void }> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
    const peer = connect(address.port, '127.0.0.1');
    const socket = await accepted;
    socket.on('error', () => undefined);
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    peer.end();
    await closed;
    return { socket, done: () => server.close() };
  }

  /** Settles with 'idle', or 'stuck' when whenIdle() has not settled within 1 s. */
  const idleOrStuck = (writer: FrameWriter) =>
    Promise.race([
      writer.whenIdle().then(() => 'idle'),
      new Promise((resolve) => setTimeout(() => resolve('stuck'), 1000).unref()),
    ]);

  it('settles whenIdle() for what was queued after the socket closed (a write to it neither drains nor fails)', async () => {
    const { socket, done } = await closedByPeer();
    const writer = new FrameWriter(socket, { framing: 'lines' });
    // What a bridge's shutdown writes on its way out: the failed requests' answers, a last notification.
    writer.enqueueText(msg(1));
    await tick();
    writer.enqueueText(msg(2));
    expect(await idleOrStuck(writer)).toBe('idle');
    done();
  });

  it('settles whenIdle() when the socket closed while the writer waited for it to drain', async () => {
    const server = createServer((s) => s.pause());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    const socket = connect(address.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.on('error', () => undefined);
    const writer = new FrameWriter(socket, { framing: 'lines' });
    const big = JSON.stringify({ method: 'x', params: { text: 'a'.repeat(8 * 1024 * 1024) } });
    writer.enqueueText(big);
    writer.enqueueText(big);
    await tick();
    const idle = idleOrStuck(writer);
    socket.destroy();
    expect(await idle).toBe('idle');
    server.close();
  });
});
