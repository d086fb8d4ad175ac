/**
 * Reading a field whole in real Chromium: the agent's `read` call (page_read with a ref) returns a textarea's full
 * value that the snapshot cuts at 100 characters, refuses a password field, and the page_read script puts text
 * fields' values in the page's text.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { rolldown } from 'rolldown';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PageReadResult, ReadResult } from '../../extension/src/shared/agent-contract';
import { REPO_ROOT } from '../support/browser';
import { clickablesPage, LONG_VALUE } from './clickable-pages';
import { agentCall, startSite, visit, refOnLine } from './harness';

let browser: Browser;
let page: Page;
let agent: string;

beforeAll(async () => {
  ({ browser, page, agent } = await startSite({ '/shapes': clickablesPage() }));
});

afterAll(async () => {
  await browser?.close();
});

const refOf = (text: string): Promise<string> => refOnLine(page, text);

async function read(ref: string, maxChars = 50_000): Promise<ReadResult> {
  return ReadResult.parse(await agentCall(page, { op: 'read', ref, maxChars }));
}

/** content/page-read.ts as one IIFE, as the worker injects it. */
async function bundleReader(): Promise<string> {
  const bundle = await rolldown({
    input: join(REPO_ROOT, 'extension/src/content/page-read.ts'),
    platform: 'browser',
    logLevel: 'silent',
  });
  const { output } = await bundle.generate({ format: 'iife' });
  await bundle.close();
  return output[0].code;
}

describe('reading a value whole', () => {
  beforeAll(async () => {
    await visit(page, '/shapes', agent);
  });

  it("reads a textarea's whole value by the ref of its cut snapshot line, line breaks kept", async () => {
    const bio = await refOf('textbox "Bio"');
    expect(await read(bio)).toEqual({ stale: false, element: 'textbox "Bio"', text: LONG_VALUE, total: 879 });
    const typed = 'x'.repeat(300);
    await page.fill('#title', typed);
    expect(await read(await refOf('textbox "Title"'))).toMatchObject({ text: typed, total: 300 });
  });

  it('cuts at maxChars and still says how long the whole is', async () => {
    const r = await read(await refOf('textbox "Bio"'), 50);
    expect(r).toEqual({ stale: false, element: 'textbox "Bio"', text: LONG_VALUE.slice(0, 50), total: 879 });
  });

  it('reads the rendered text of an element that is not a field', async () => {
    expect(await read(await refOf('clickable "Fancy action"'))).toMatchObject({ text: 'Fancy action', total: 12 });
  });

  it('refuses a password field and answers stale for an unknown ref', async () => {
    expect(await read(await refOf('textbox "Secret"'))).toEqual({
      stale: false,
      error: 'textbox "Secret" is a password field: its value is never read.',
    });
    expect(await read('e999')).toMatchObject({ stale: true });
  });

  it('puts text fields in page_read with their values whole, never a password', async () => {
    await page.addScriptTag({ content: await bundleReader() });
    const result = PageReadResult.parse(
      await page.evaluate(() =>
        (globalThis as unknown as { __tetherReadPage(max: number): unknown }).__tetherReadPage(50_000),
      ),
    );
    expect(result.text).toContain(
      `\n\nText fields:\n[textbox "Bio"]\n${LONG_VALUE}\n\n[textbox "Title"]\n${'x'.repeat(300)}`,
    );
    expect(result.text).not.toContain('hunter2');
  });
});
