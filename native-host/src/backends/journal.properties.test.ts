/**
 * Property of the ACP thread journal: a thread's journal torn at ANY byte offset (a crash in the middle of an append)
 * pages back as every item that was complete before the tear, and reading never throws. The journal is the thread
 * store's (store/thread-store.properties.test.ts checks the same of it with turns and budgets).
 *
 * A failure prints its seed and path. To replay it, pass them to the property that failed:
 * `test.prop([...], { seed: 123, path: '0:1', endOnFailure: true })`, or set `fc.configureGlobal({ seed: 123 })` at
 * the top of this file.
 */
import { readFileSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { testItem, testThread } from '../testing/journal-fixtures';
import { useTempDirs } from '../testing/temp-dirs';
import { ThreadJournal } from './journal';

const tempDir = useTempDirs('tether-journal-prop-');

const item = fc
  .record({
    id: fc.string({ minLength: 1, maxLength: 4 }),
    text: fc.string({ maxLength: 12, unit: 'binary' }),
  })
  .map(({ id, text }) => testItem(id, text));

describe('ThreadJournal pages', () => {
  test.prop([fc.array(item, { minLength: 1, maxLength: 3 })], { numRuns: 40 })(
    'returns every item complete before a tear at any byte offset of its file, and never throws',
    async (items) => {
      const dir = tempDir();
      const writer = new ThreadJournal(dir, () => undefined);
      await writer.load();
      writer.put({
        thread: testThread('t', { model: '' }),
        sessionId: 's',
      });
      for (const i of items) writer.append('t', i);
      const file = join(dir, 'threads', 't.jsonl');
      const full = readFileSync(file);
      const ends: number[] = [];
      for (let at = full.indexOf(0x0a); at >= 0; at = full.indexOf(0x0a, at + 1)) ends.push(at);
      // The first line is the thread's header; each item's line follows.
      ends.shift();
      expect(ends).toHaveLength(items.length);
      // From the end down: each truncation is one syscall. Each journal is small (every offset costs a fresh reader),
      // so the runs are fewer than elsewhere; each still checks every offset of its file.
      for (let tear = full.length; tear >= 0; tear--) {
        truncateSync(file, tear);
        const reader = new ThreadJournal(dir, () => undefined);
        await reader.load();
        let page = reader.page('t', { bytes: 64, turns: 100 });
        const history = page.items;
        while (page.olderCursor) {
          page = reader.page('t', { bytes: 64, turns: 100 }, page.olderCursor);
          history.unshift(...page.items);
        }
        expect(history).toStrictEqual(items.slice(0, ends.filter((end) => end <= tear).length));
      }
    },
  );
});
