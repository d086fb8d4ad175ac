/** A small reader of `text/event-stream` bodies: yields the data of each event, with an idle timeout. */

/** The stream went quiet for longer than the idle timeout. */
export class StreamIdleError extends Error {
  override name = 'StreamIdleError';
  constructor(readonly timeoutMs: number) {
    super(`no data for ${timeoutMs} ms`);
  }
}

/**
 * Yields the `data` of every complete server-sent event of `body` (multi-line data joined with "\n"; comments and
 * other fields skipped). Throws StreamIdleError when no bytes arrive for `idleMs`; stops when `signal` aborts.
 */
export async function* readSseData(
  body: ReadableStream<Uint8Array>,
  opts: { idleMs: number; signal?: AbortSignal },
): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  try {
    for (;;) {
      const chunk = await readWithTimeout(reader, opts.idleMs, opts.signal);
      if (chunk.done) break;
      buffer += decoder.decode(chunk.value, { stream: true });
      let start = 0;
      for (;;) {
        const lf = buffer.indexOf('\n', start);
        if (lf < 0) break;
        const line = buffer.slice(start, lf > start && buffer.charCodeAt(lf - 1) === 13 ? lf - 1 : lf);
        start = lf + 1;
        if (line === '') {
          if (data.length > 0) yield data.join('\n');
          data = [];
        } else if (line.startsWith('data:')) {
          data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
        }
      }
      buffer = buffer.slice(start);
    }
    // An event not closed by a blank line at end of stream is discarded, as the SSE standard says.
  } finally {
    reader.releaseLock();
  }
}

function readWithTimeout(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  ms: number,
  signal?: AbortSignal,
): Promise<ReadableStreamReadResult<Uint8Array>> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
      void reader.cancel().catch(() => undefined);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      reject(new StreamIdleError(ms));
      void reader.cancel().catch(() => undefined);
    }, ms);
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    reader.read().then(
      (r) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve(r);
      },
      (e: unknown) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
