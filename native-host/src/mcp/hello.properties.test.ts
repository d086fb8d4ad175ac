/**
 * Properties of the socket's hello reader, which reads bytes from any process of the user: no input may make it throw
 * anything but a HelloError or hold more than its limit, and a hello split anywhere reads back as sent.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { FirstLine, HelloError, helloLine, MAX_HELLO_BYTES, parseAnswer, parseHello } from './hello';

const RUNS = { numRuns: 500 };
const token = fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/);

/** Feeds `chunks` to a FirstLine and then parses the line as a hello, as the socket endpoint does. */
function read(chunks: Buffer[]): { token: string; rest: Buffer } | 'more' | HelloError {
  const first = new FirstLine();
  for (const chunk of chunks) {
    try {
      const got = first.push(chunk);
      if (got) return { token: parseHello(got.line).token, rest: got.rest };
    } catch (error) {
      if (error instanceof HelloError) return error;
      throw error;
    }
  }
  return 'more';
}

describe('hello line', () => {
  test.prop([fc.array(fc.uint8Array({ maxLength: 2000 }), { maxLength: 8 })], RUNS)(
    'arbitrary bytes give a token, a HelloError or a wait for more, never another exception',
    (chunks) => {
      const result = read(chunks.map((c) => Buffer.from(c)));
      if (typeof result === 'object' && !(result instanceof HelloError)) expect(result.token.length).toBeGreaterThan(0);
    },
  );

  test.prop([token, fc.uint8Array({ maxLength: 200 }), fc.array(fc.nat(), { maxLength: 6 })], RUNS)(
    'a hello split at any points reads back, and the bytes after it are kept for MCP',
    (t, after, cuts) => {
      const whole = Buffer.concat([Buffer.from(helloLine({ token: t })), Buffer.from(after)]);
      const points = [...new Set(cuts.map((c) => c % (whole.length + 1)))].sort((a, b) => a - b);
      const chunks: Buffer[] = [];
      let at = 0;
      for (const p of [...points, whole.length]) {
        chunks.push(whole.subarray(at, p));
        at = p;
      }
      const first = new FirstLine();
      let got: ReturnType<FirstLine['push']>;
      let rest: Buffer[] = [];
      for (const chunk of chunks) {
        if (got) rest.push(chunk);
        else got = first.push(chunk);
      }
      expect(got).toBeDefined();
      rest = [got!.rest, ...rest];
      expect(parseHello(got!.line).token).toBe(t);
      expect(Buffer.concat(rest)).toEqual(Buffer.from(after));
    },
  );

  test.prop([fc.integer({ min: MAX_HELLO_BYTES + 1, max: MAX_HELLO_BYTES * 4 })], { numRuns: 20 })(
    'a first line longer than the limit is refused before it is all held',
    (length) => {
      expect(read([Buffer.alloc(length, 0x61)])).toBeInstanceOf(HelloError);
    },
  );

  test.prop([fc.json()], RUNS)('a JSON line is a hello only with a non-empty string token', (json) => {
    let parsed: unknown;
    try {
      parsed = parseHello(json);
    } catch (error) {
      expect(error).toBeInstanceOf(HelloError);
      return;
    }
    expect(typeof (parsed as { token: unknown }).token).toBe('string');
  });

  test.prop([fc.json()], RUNS)("the host's answer parses as ok, as an error, or throws HelloError", (json) => {
    try {
      const answer = parseAnswer(json);
      expect('ok' in answer || 'error' in answer).toBe(true);
    } catch (error) {
      expect(error).toBeInstanceOf(HelloError);
    }
  });
});
