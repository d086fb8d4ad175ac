/**
 * Properties of the envelope scanner, with JSON.parse as the oracle: what the scanner extracts from a message must be
 * what a full parse of the same bytes says, and no input (arbitrary bytes, JSON values, mutated or truncated JSON) may
 * make it throw or loop.
 *
 * A failure prints its seed and path. To replay it, pass them to the property that failed:
 * `test.prop([...], { seed: 123, path: '0:1', endOnFailure: true })`, or set `fc.configureGlobal({ seed: 123 })` at
 * the top of this file.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import {
  forEachBatchMember,
  mayNeedScan,
  mayNeedScanParts,
  scanEnvelope,
  shapeOf,
  shapeOfParts,
} from './envelope-scan';
import { cutAt } from '../testing/cut';

const RUNS = { numRuns: 500 };
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** JSON.parse of the bytes as a peer reads them (strict UTF-8), or undefined when they are not JSON. */
function parse(bytes: Buffer): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(strictUtf8.decode(bytes)) as unknown };
  } catch {
    return undefined;
  }
}

const own = (o: object, key: string): boolean => Object.hasOwn(o, key);

/** Keys of a JSON-RPC envelope, mixed with arbitrary ones. */
const key = fc.oneof(
  fc.constantFrom('id', 'method', 'result', 'error', 'params', 'jsonrpc'),
  fc.string({ maxLength: 8 }),
);
const method = fc.oneof(
  fc.constantFrom('bridge/hello', 'bridge/backend/restart', 'turn/start', 'initialized'),
  fc.string(),
  fc.jsonValue({ maxDepth: 2 }),
);
/** A message-like object: envelope keys with plausible or arbitrary values (no duplicate keys: JSON.stringify writes none). */
const messageObject = fc
  .dictionary(key, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 })
  .chain((o) => fc.record({ o: fc.constant(o), method: fc.option(method, { nil: undefined }) }))
  .map(({ o, method: m }) => (m === undefined || !own(o, 'method') ? o : { ...o, method: m }));

/** Rewrites that keep the JSON value the same: indentation, and escapes no encoder writes but every parser reads. */
const spelling = fc.record({
  indent: fc.constantFrom('', ' ', '\t', '\n  ', '\r\n'),
  escapeKeys: fc.boolean(),
  escapeSlashes: fc.boolean(),
});

function spell(value: unknown, s: { indent: string; escapeKeys: boolean; escapeSlashes: boolean }): string {
  let text = JSON.stringify(value, null, s.indent);
  // `"id":` and `"method":` can only be keys (a quote inside a string is escaped); `/` only occurs inside strings.
  if (s.escapeKeys) text = text.replaceAll('"id":', '"\\u0069d":').replaceAll('"method":', '"\\u006dethod":');
  if (s.escapeSlashes) text = text.replaceAll('/', '\\/');
  return text;
}

/** A valid JSON text, then damaged: truncated, a byte changed, inserted or removed, a slice repeated. */
const mutatedJson = fc
  .record({
    text: fc.oneof(
      messageObject.map((o) => JSON.stringify(o)),
      fc.json({ maxDepth: 4 }),
    ),
    at: fc.nat(),
    byte: fc.integer({ min: 0, max: 255 }),
    how: fc.constantFrom('truncate', 'replace', 'insert', 'delete', 'repeat'),
  })
  .map(({ text, at, byte, how }) => {
    const b = Buffer.from(text, 'utf8');
    const i = b.length === 0 ? 0 : at % b.length;
    const one = Buffer.from([byte]);
    switch (how) {
      case 'truncate':
        return b.subarray(0, i);
      case 'replace':
        return Buffer.concat([b.subarray(0, i), one, b.subarray(i + 1)]);
      case 'insert':
        return Buffer.concat([b.subarray(0, i), one, b.subarray(i)]);
      case 'delete':
        return Buffer.concat([b.subarray(0, i), b.subarray(i + 1)]);
      default:
        return Buffer.concat([b.subarray(0, i), b.subarray(i >> 1), b.subarray(i)]);
    }
  });

/** Anything a peer could write: random bytes, random text, JSON, damaged JSON, deep brackets. */
const anyBytes = fc.oneof(
  fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)),
  fc.string({ unit: 'binary' }).map((s) => Buffer.from(s, 'utf8')),
  fc.json().map((s) => Buffer.from(s, 'utf8')),
  mutatedJson,
  fc
    .record({ depth: fc.integer({ min: 1, max: 3000 }), open: fc.constantFrom('[', '{', '{"a":[', '"') })
    .map(({ depth, open }) => Buffer.from(open.repeat(depth))),
);

/** Cut points: anywhere, or crowded near the start where the envelope keys are (so that one-byte buffers occur). */
const cutPoints = fc.oneof(
  fc.array(fc.nat(), { maxLength: 6 }),
  fc.array(fc.integer({ min: 0, max: 24 }), { maxLength: 8 }),
);

/** Times `needle` occurs in `bytes`. */
function occurrences(bytes: Buffer, needle: string): number {
  let n = 0;
  for (let i = bytes.indexOf(needle); i >= 0; i = bytes.indexOf(needle, i + 1)) n++;
  return n;
}

/**
 * Checks what scanEnvelope says against a full parse of the same bytes. With a duplicate envelope key (which damaged
 * JSON may hold) a parse keeps the last and the scan the first: no encoder writes that, so it is not compared.
 */
function agreesWithParse(bytes: Buffer, mayRepeatKeys = false): void {
  if (mayRepeatKeys && ['"id"', '"method"', '"result"', '"error"'].some((k) => occurrences(bytes, k) > 1)) {
    expect(() => scanEnvelope(bytes)).not.toThrow();
    return;
  }
  const envelope = scanEnvelope(bytes);
  const parsed = parse(bytes);
  if (parsed === undefined) return; // not JSON: the scanner is not a validator, it only must not throw
  const value = parsed.value;
  if (Array.isArray(value)) {
    expect(envelope.shape).toBe('array');
    return;
  }
  if (typeof value !== 'object' || value === null) {
    expect(envelope.shape).toBe('invalid');
    return;
  }
  expect(envelope.shape).toBe('object');
  const message = value as Record<string, unknown>;
  if (own(message, 'id')) expect(JSON.parse(envelope.id!)).toStrictEqual(message['id']);
  else expect(envelope.id).toBeUndefined();
  if (envelope.method !== undefined) expect(envelope.method).toBe(message['method']);
  // The scan stops once an id and a result/error are found: a method after them is not read (it is a response).
  const respondedEarly = envelope.id !== undefined && envelope.isResponse;
  if (typeof message['method'] === 'string' && !respondedEarly) expect(envelope.method).toBe(message['method']);
  if (envelope.isResponse) expect(own(message, 'result') || own(message, 'error')).toBe(true);
  // ...and once an id and a method are found: a result/error after them is not read (it is a request).
  if (own(message, 'result') || own(message, 'error'))
    expect(envelope.isResponse || (envelope.id !== undefined && envelope.method !== undefined)).toBe(true);
}

describe('scanEnvelope, with JSON.parse as the oracle', () => {
  test.prop([messageObject, spelling], RUNS)(
    'extracts the id and method a full parse finds, however the message is spelt',
    (message, s) => {
      agreesWithParse(Buffer.from(spell(message, s), 'utf8'));
    },
  );

  test.prop([fc.jsonValue(), spelling], RUNS)('classifies any JSON value as a full parse does', (value, s) => {
    agreesWithParse(Buffer.from(spell(value, s), 'utf8'));
  });

  test.prop([anyBytes], { numRuns: 1000 })(
    'never throws on arbitrary bytes, and agrees with a parse whenever the bytes are JSON',
    (bytes) => {
      expect(() => scanEnvelope(bytes)).not.toThrow();
      agreesWithParse(bytes, true);
    },
  );
});

describe('the pre-scan of the hot path', () => {
  test.prop(
    [
      fc.oneof(
        anyBytes,
        messageObject.map((o) => Buffer.from(JSON.stringify(o), 'utf8')),
      ),
      cutPoints,
    ],
    { numRuns: 1000 },
  )(
    'wants a scan exactly when "id" or "bridge/ is quoted somewhere, however the message is cut into buffers',
    (bytes, points) => {
      const expected = bytes.includes('"id"') || bytes.includes('"bridge/');
      expect(mayNeedScan(bytes)).toBe(expected);
      expect(
        mayNeedScanParts(
          cutAt(bytes, points)
            .filter((p) => p.length > 0)
            .concat(bytes.length === 0 ? [bytes] : []),
        ),
      ).toBe(expected);
    },
  );

  test.prop([anyBytes, cutPoints], RUNS)(
    'reads the same shape from a message cut into buffers as from it whole',
    (bytes, points) => {
      const parts = cutAt(bytes, points);
      expect(shapeOfParts(parts, bytes.length)).toBe(shapeOf(bytes));
    },
  );

  test.prop([messageObject, spelling], RUNS)(
    'passes on unscanned only messages that are neither requests nor bridge messages',
    (message, s) => {
      const bytes = Buffer.from(spell(message, { ...s, escapeKeys: false, escapeSlashes: false }), 'utf8');
      if (mayNeedScan(bytes)) return;
      expect(own(message, 'id')).toBe(false);
      expect(typeof message['method'] === 'string' && message['method'].startsWith('bridge/')).toBe(false);
    },
  );
});

describe('forEachBatchMember, with JSON.parse as the oracle', () => {
  const walk = (bytes: Buffer) => {
    const members: Buffer[] = [];
    const result = forEachBatchMember(bytes, (start, end) => void members.push(bytes.subarray(start, end)));
    return { result, members };
  };

  test.prop([fc.array(fc.jsonValue({ maxDepth: 4 }), { maxLength: 8 }), spelling], RUNS)(
    'finds the members a full parse finds, each as its own bytes',
    (items, s) => {
      const text = spell(items, s);
      const { result, members } = walk(Buffer.from(text, 'utf8'));
      expect(result).toBe('complete');
      // Compared with a parse of the text, not with the items: JSON has no -0, so [-0] reads back as [0].
      expect(members.map((m) => JSON.parse(m.toString('utf8')) as unknown)).toStrictEqual(JSON.parse(text));
    },
  );

  test.prop([anyBytes], { numRuns: 1000 })(
    'never throws on arbitrary bytes, and finds every member whenever the bytes are a JSON array',
    (bytes) => {
      const { result, members } = walk(bytes);
      const parsed = parse(bytes);
      if (parsed === undefined || !Array.isArray(parsed.value)) return;
      expect(result).toBe('complete');
      expect(members.map((m) => parse(m)?.value)).toStrictEqual(parsed.value);
    },
  );

  test.prop([fc.integer({ min: 1, max: 200_000 })], { numRuns: 50 })(
    'steps over any depth of nesting without recursion',
    (depth) => {
      const bytes = Buffer.from(`[${'['.repeat(depth)}${']'.repeat(depth)},{"id":1}]`);
      const { result, members } = walk(bytes);
      expect(result).toBe('complete');
      expect(members.map((m) => m.length)).toEqual([2 * depth, 8]);
      expect(walk(Buffer.from('['.repeat(depth))).result).toBe('malformed');
    },
  );
});
