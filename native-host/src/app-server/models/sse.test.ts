import { describe, expect, it } from 'vitest';
import { readSseData, StreamIdleError } from './sse';

function body(chunks: string[], keepOpen = false): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(encoder.encode(c));
      if (!keepOpen) controller.close();
    },
  });
}

async function collect(stream: ReadableStream<Uint8Array>, idleMs = 1000): Promise<string[]> {
  const out: string[] = [];
  for await (const d of readSseData(stream, { idleMs })) out.push(d);
  return out;
}

describe('server-sent events', () => {
  it('yields the data of events split across chunks, with CRLF, comments and multi-line data', async () => {
    expect(
      await collect(
        body(['data: {"a"', ':1}\r\n\r\n: keep-alive\n\nevent: x\ndata: one\ndata: two\n\n', 'data:[DONE]\n\n']),
      ),
    ).toEqual(['{"a":1}', 'one\ntwo', '[DONE]']);
  });

  it('discards an event the stream cut before its blank line', async () => {
    expect(await collect(body(['data: whole\n\ndata: cut']))).toEqual(['whole']);
  });

  it('throws StreamIdleError when no bytes arrive for the idle timeout', async () => {
    await expect(collect(body(['data: a\n\n'], true), 100)).rejects.toBeInstanceOf(StreamIdleError);
  });
});
