/**
 * Property of the JSONL journal reader: a journal torn at ANY byte offset (a crash in the middle of an append) reads
 * back as every record that was complete before the tear, and reading never throws nor modifies the file.
 *
 * A failure prints its seed and path. To replay it, pass them to the property that failed:
 * `test.prop([...], { seed: 123, path: '0:1', endOnFailure: true })`, or set `fc.configureGlobal({ seed: 123 })` at
 * the top of this file.
 */
import { readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { useTempDirs } from '../testing/temp-dirs';
import { readJsonlFile, toJsonlLines } from './jsonl-file';

const tempDir = useTempDirs('tether-jsonl-prop-');

/** Records as the stores write them: JSON objects, with any text (multi-byte characters to tear in half included). */
const text = fc.string({ unit: 'binary', maxLength: 8 });
const value = fc.oneof(
  text,
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(text, { maxLength: 3 }),
);
const record = fc.dictionary(fc.string({ maxLength: 6 }), value, { maxKeys: 4 });

describe('readJsonlFile', () => {
  test.prop([fc.array(record, { maxLength: 5 })], { numRuns: 200 })(
    'returns every record complete before a tear at any byte offset, and never throws',
    (records) => {
      const path = join(tempDir(), 'journal.jsonl');
      const full = Buffer.from(toJsonlLines(records), 'utf8');
      // Where each record's JSON text ends: a tear at or after that offset leaves it whole (only its newline lost).
      const ends: number[] = [];
      let at = 0;
      for (const r of records) {
        at += Buffer.byteLength(JSON.stringify(r), 'utf8');
        ends.push(at);
        at += 1;
      }
      // As a reader sees them: plain objects (the generator's have no prototype).
      const expected = records.map((r) => JSON.parse(JSON.stringify(r)) as unknown);
      writeFileSync(path, full);
      // From the end down: each truncation is one syscall, so every offset of every journal is checked.
      for (let tear = full.length; tear >= 0; tear--) {
        truncateSync(path, tear);
        const read = readJsonlFile(path);
        const whole = ends.filter((end) => end <= tear).length;
        expect(read.records).toStrictEqual(expected.slice(0, whole));
        expect(read.badLines).toBe(0);
        expect(read.tornTail).toBe(tear > 0 && !ends.includes(tear) && full[tear - 1] !== 0x0a);
        expect(readFileSync(path).length).toBe(tear);
      }
    },
  );
});
