/**
 * Injected on demand into the tab bound to a thread (never declared as a content script), in the extension's
 * isolated world. Defines one function the worker then calls with a size cap. Readability works on a clone so the
 * page is left untouched; only text leaves the page.
 */
import { Readability } from '@mozilla/readability';

/** What page_read returns. */
export interface PageReadResult {
  url: string;
  title: string;
  selection: string;
  text: string;
  truncated: boolean;
  byline?: string;
}

function readPage(maxChars: number): PageReadResult {
  const selection = (globalThis.getSelection?.()?.toString() ?? '').slice(0, maxChars);
  let text = '';
  let byline: string | undefined;
  try {
    const article = new Readability(document.cloneNode(true) as Document).parse();
    text = article?.textContent?.trim() ?? '';
    byline = article?.byline ?? undefined;
  } catch {
    text = '';
  }
  // Pages that are not articles (apps, short pages) still have text worth reading.
  if (text.length < 200) text = document.body?.innerText?.trim() ?? text;
  text = text.replace(/\n{3,}/g, '\n\n');
  const truncated = text.length > maxChars;
  return {
    url: location.href,
    title: document.title,
    selection,
    text: truncated ? text.slice(0, maxChars) : text,
    truncated,
    ...(byline ? { byline } : {}),
  };
}

(globalThis as { __tetherReadPage?: typeof readPage }).__tetherReadPage = readPage;
