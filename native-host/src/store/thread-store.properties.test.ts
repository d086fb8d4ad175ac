/**
 * Property of the thread store's paged reads: a journal torn at ANY byte offset (a crash in the middle of an append)
 * pages back, from the latest page to the first by cursor, as every item that was complete before the tear, each
 * once and in order, and reading never throws. The same journal is the ACP adapter's (see backends/journal.ts).
 *
 * A failure prints its seed and path. To replay it, pass them to the property that failed:
 * `test.prop([...], { seed: 123, path: '0:1', endOnFailure: true })`, or set `fc.configureGlobal({ seed: 123 })` at
 * the top of this file.
 */
import { readFileSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import type { Item } from '@tether/protocol';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { testItem, testThread } from '../testing/journal-fixtures';
import { useTempDirs } from '../testing/temp-dirs';
import { ThreadStore } from './thread-store';

const tempDir = useTempDirs('tether-store-prop-');

const item = fc
  .record({
    id: fc.string({ minLength: 1, maxLength: 4 }),
    text: fc.string({ maxLength: 12, unit: 'binary' }),
    turn: fc.integer({ min: 0, max: 2 }),
  })
  .map(({ id, text, turn }) => testItem(id, text, { turnId: `turn_${turn}` }));

describe('ThreadStore pages', () => {
  test.prop(
    [fc.array(item, { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 120 }), fc.integer({ min: 1, max: 2 })],
    { numRuns: 40 },
  )(
    'return every item complete before a tear at any byte offset, once and in order, and never throw',
    (items, bytes, turns) => {
      const dir = tempDir();
      const writer = new ThreadStore(dir, () => undefined);
      writer.create(testThread('t', { model: '' }));
      const sizes = items.map((i) => writer.appendItem('t', i));
      writer.close();
      const file = join(dir, 'threads', 't.jsonl');
      const full = readFileSync(file);
      // Where each item's line ends (its newline's offset); a tear at or after the JSON's end keeps it whole.
      const ends: number[] = [];
      let at = full.length - sizes.reduce((a, b) => a + b, 0);
      for (const size of sizes) ends.push((at += size) - 1);
      const reader = new ThreadStore(dir, () => undefined);
      for (let tear = full.length; tear >= 0; tear--) {
        truncateSync(file, tear);
        const walked: Item[][] = [];
        let page = reader.page('t', { bytes, turns });
        walked.unshift(page.items);
        while (page.olderCursor !== null) {
          page = reader.page('t', { bytes, turns }, page.olderCursor);
          walked.unshift(page.items);
        }
        expect(walked.flat()).toStrictEqual(items.slice(0, ends.filter((end) => end <= tear).length));
      }
    },
  );
});
