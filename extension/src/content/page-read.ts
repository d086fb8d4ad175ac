/**
 * Injected on demand into the tab bound to a thread (never declared as a content script), in the extension's
 * isolated world. Defines one function the worker then calls with a size cap. Readability works on a clone so the
 * page is left untouched; only text leaves the page.
 */
import { Readability } from '@mozilla/readability';
import type { PageReadResult } from '../shared/agent-contract';
import { isNotRendered } from './dom';
import { nameOf, roleOf, TEXT_INPUT_TYPES } from './roles';

const BLOCKS = new Set([
  'P',
  'DIV',
  'SECTION',
  'ARTICLE',
  'LI',
  'TR',
  'PRE',
  'BLOCKQUOTE',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'TABLE',
  'UL',
  'OL',
  'FIGCAPTION',
]);

/** Text of a detached tree with a blank line after each block (textContent would glue paragraphs together). */
function blockText(root: Node): string {
  const parts: string[] = [];
  const walk = (node: Node): void => {
    if (node.nodeType === Node.TEXT_NODE) {
      parts.push((node.nodeValue ?? '').replace(/\s+/g, ' '));
      return;
    }
    if (node.nodeName === 'BR') parts.push('\n');
    for (const child of Array.from(node.childNodes)) walk(child);
    if (BLOCKS.has(node.nodeName)) parts.push('\n\n');
  };
  walk(root);
  return parts
    .join('')
    .replace(/[ \t]*\n[ \t]*/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * The text a user typed or a page put in its fields, which neither the article nor `innerText` holds (a textarea's
 * value is not its text): one block per non-empty rendered field, named as the snapshot names it; never a password.
 */
function fieldsText(): string {
  const blocks: string[] = [];
  for (const field of document.querySelectorAll('textarea, input')) {
    const text = field instanceof HTMLTextAreaElement || isTextInput(field) ? (field as HTMLInputElement).value : '';
    if (!text.trim() || isNotRendered(field)) continue;
    const role = roleOf(field);
    const name = nameOf(field, role);
    blocks.push(`[${role}${name ? ` ${JSON.stringify(name)}` : ''}]\n${text}`);
  }
  return blocks.length > 0 ? `\n\nText fields:\n${blocks.join('\n\n')}` : '';
}

function isTextInput(el: Element): boolean {
  return el instanceof HTMLInputElement && el.type !== 'password' && TEXT_INPUT_TYPES.has(el.type);
}

function readPage(maxChars: number): PageReadResult {
  const selection = (globalThis.getSelection?.()?.toString() ?? '').slice(0, maxChars);
  let text = '';
  let byline: string | undefined;
  try {
    const article = new Readability(document.cloneNode(true) as Document).parse();
    text = article?.content ? blockText(new DOMParser().parseFromString(article.content, 'text/html').body) : '';
    byline = article?.byline ?? undefined;
  } catch {
    text = '';
  }
  // Pages that are not articles (apps, short pages) still have text worth reading.
  // biome-ignore lint/performance/useDomNodeTextContent: innerText is the rendered text (no script or hidden nodes).
  if (text.length < 200) text = document.body?.innerText?.trim() ?? text;
  text = text.replace(/\n{3,}/g, '\n\n') + fieldsText();
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
