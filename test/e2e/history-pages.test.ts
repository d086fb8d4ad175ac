import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type JournalRecord,
  testItem,
  testThread,
  writeThreadJournal,
} from '../../native-host/src/testing/journal-fixtures';
import { childAppServerConfig } from '../support/browser';
import { useBrowserSuite } from '../support/browser-suite';
import { openConnectedPanel } from '../support/extension-pages';

const THREAD_ID = 'thread_long_history';
const TURNS = 300;
/** A thread on one server page, but longer than the panel renders before its first paint. */
const SHORT_ID = 'thread_one_page';
const SHORT_TURNS = 20;

/** A data dir holding one thread of TURNS turns (a question and an answer each), as the thread store writes it. */
function seededDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tether-e2e-pages-'));
  const records: JournalRecord[] = [];
  for (let t = 0; t < TURNS; t++) {
    const options = { turnId: `turn_${t}`, completedAtMs: 1 };
    const question = testItem(`item_${t}_q`, `question number ${t}`, { ...options, type: 'userMessage' });
    records.push({ type: 'item', item: question });
    records.push({ type: 'item', item: testItem(`item_${t}_a`, `answer number ${t}`, options) });
  }
  writeThreadJournal(dir, testThread(THREAD_ID, { title: 'A long conversation', updatedAtMs: 2 }), records);
  const short: JournalRecord[] = [];
  for (let t = 0; t < SHORT_TURNS; t++) {
    const options = { turnId: `short_${t}`, completedAtMs: 1 };
    short.push({
      type: 'item',
      item: testItem(`short_${t}_q`, `short question ${t}`, { ...options, type: 'userMessage' }),
    });
    short.push({
      type: 'item',
      item: testItem(`short_${t}_a`, `short answer ${t}. ${'Words. '.repeat(150)}`, options),
    });
  }
  writeThreadJournal(dir, testThread(SHORT_ID, { title: 'One page', updatedAtMs: 1 }), short);
  return dir;
}

describe('a long thread in the side panel (Chromium)', () => {
  const dataDir = seededDataDir();
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const suite = useBrowserSuite({
    hostConfig: childAppServerConfig('the reference app-server on a seeded data dir', ['--data-dir', dataDir]),
  });

  it('opens with the latest page and loads older pages as the reader scrolls up, each item once and in order', async () => {
    const { panel } = await openConnectedPanel(suite.browser, suite.demo.url('/'));
    await panel.locator('button[data-action="history"]').click();
    await panel.locator(`.history li[data-thread-id="${THREAD_ID}"] button.link`).click();
    const items = panel.locator('.transcript > [data-item-id]');
    // The end of the latest page (100 turns, the server's page budget) first, not the whole thread: the panel renders
    // the latest items of a page before its first paint and the rest as the reader scrolls up.
    await expect.poll(() => items.count(), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await items.count()).toBeLessThanOrEqual(200);
    expect(await items.last().textContent()).toContain(`answer number ${TURNS - 1}`);
    await panel.locator('button[data-action="older"]').waitFor();

    for (let i = 0; i < 20 && (await items.count()) < 2 * TURNS; i++) {
      await panel.locator('.scroller').evaluate((el) => el.scrollTo({ top: 0 }));
      await panel.waitForTimeout(200);
    }
    await expect.poll(() => items.count(), { timeout: 30_000 }).toBe(2 * TURNS);
    const ids = await items.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.itemId));
    expect(ids).toEqual(Array.from({ length: TURNS }, (_, t) => [`item_${t}_q`, `item_${t}_a`]).flat());
    await panel.locator('button[data-action="older"]').waitFor({ state: 'detached' });
    await panel.close();
  });

  it('shows the rest of a one-page thread as the reader scrolls up, and then no "Earlier messages"', async () => {
    const { panel } = await openConnectedPanel(suite.browser, suite.demo.url('/'));
    await panel.locator('button[data-action="history"]').click();
    await panel.locator(`.history li[data-thread-id="${SHORT_ID}"] button.link`).click();
    const items = panel.locator('.transcript > [data-item-id]');
    await expect.poll(() => items.count(), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await items.count()).toBeLessThan(2 * SHORT_TURNS);
    const older = panel.locator('button[data-action="older"]');
    for (let i = 0; i < 20 && ((await items.count()) < 2 * SHORT_TURNS || (await older.count()) > 0); i++) {
      await panel.locator('.scroller').evaluate((el) => el.scrollTo({ top: 0 }));
      await panel.waitForTimeout(200);
    }
    const ids = await items.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.itemId));
    expect(ids).toEqual(Array.from({ length: SHORT_TURNS }, (_, t) => [`short_${t}_q`, `short_${t}_a`]).flat());
    await older.waitFor({ state: 'detached' });
    await panel.close();
  });
});
