/**
 * Model output to HTML, safely. micromark escapes raw HTML (allowDangerousHtml stays off) and drops dangerous URL
 * schemes such as `javascript:` (allowDangerousProtocol stays off). On top of that, remote images are not loaded:
 * an image URL in model output is a classic way to leak page data (prompt injection), so it becomes a plain link.
 */
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';

/** Answers longer than this stay plain text: parsing them would block the panel for more than a frame budget. */
export const MARKDOWN_MAX_CHARS = 48_000;

/** HTML for `markdown`; raw HTML in the input is escaped, dangerous links are emptied. Safe to assign to innerHTML. */
export function markdownToHtml(markdown: string): string {
  return micromark(markdown, { extensions: [gfm()], htmlExtensions: [gfmHtml()] });
}

/** Renders `markdown` into a fragment of `doc`, with images turned into links and links opening in a new tab. */
export function renderMarkdown(doc: Document, markdown: string): DocumentFragment {
  const template = doc.createElement('template');
  template.innerHTML = markdownToHtml(markdown);
  const fragment = template.content;
  for (const img of Array.from(fragment.querySelectorAll('img'))) {
    const src = img.getAttribute('src') ?? '';
    const link = doc.createElement('a');
    link.textContent = `[image: ${img.getAttribute('alt') || src || 'no address'}]`;
    if (src) link.setAttribute('href', src);
    img.replaceWith(link);
  }
  for (const a of Array.from(fragment.querySelectorAll('a'))) {
    const href = a.getAttribute('href');
    if (!href) {
      a.removeAttribute('href');
      continue;
    }
    a.setAttribute('target', '_blank');
    a.setAttribute('rel', 'noopener noreferrer');
  }
  return fragment;
}
