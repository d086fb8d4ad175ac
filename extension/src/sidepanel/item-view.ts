/**
 * The element of one thread item, as the transcript shows it: who said it (for screen readers), its body (markdown
 * for a finished answer, streamed text while it is written, a tool card), and its actions (copy an answer or a code
 * block, edit the last message). Actions are plain buttons with `data-action`; the transcript handles their clicks.
 */
import type { Item } from '@tether/protocol';
import { MARKDOWN_MAX_CHARS, renderMarkdown } from '../shared/markdown';
import { StreamMarkdown, type TextSink } from './stream-markdown';
import { StreamText } from './stream-text';
import { fillToolCard } from './tool-card';

/** An item's element, its body and where its streamed text goes. */
export interface ItemView {
  readonly root: HTMLElement;
  readonly body: HTMLElement;
  readonly stream?: TextSink;
}

/** What a screen reader hears before a message: who said it. */
export const SPEAKERS = { userMessage: 'You said:', agentMessage: 'Tether said:' } as const;

/** The text the Copy button of a finished answer copies (the answer's markdown), by the answer's element. */
const answerTexts = new WeakMap<Element, string>();

/** A row of item actions holding one button: `action` names it for the panel's click handler. */
function actionsRow(doc: Document, action: string, label: string, ariaLabel: string, title: string): HTMLElement {
  const b = doc.createElement('button');
  b.type = 'button';
  b.className = `item-action ${action}`;
  b.dataset.action = action;
  b.textContent = label;
  b.setAttribute('aria-label', ariaLabel);
  b.title = title;
  const actions = doc.createElement('div');
  actions.className = 'actions';
  actions.appendChild(b);
  return actions;
}

function speaker(doc: Document, text: string): HTMLElement {
  const label = doc.createElement('span');
  label.className = 'sr-only speaker';
  label.textContent = text;
  return label;
}

/**
 * Gives each code block of rendered markdown a Copy button. Its label is drawn by CSS (`data-label`), so the answer's
 * text stays the model's text; its accessible name is `aria-label`.
 */
function addCodeCopy(doc: Document, body: HTMLElement): void {
  for (const pre of Array.from(body.querySelectorAll('pre'))) {
    const box = doc.createElement('div');
    box.className = 'code-block';
    pre.replaceWith(box);
    const copy = doc.createElement('button');
    copy.type = 'button';
    copy.className = 'copy-code';
    copy.dataset.action = 'copy-code';
    copy.dataset.label = 'Copy';
    copy.setAttribute('aria-label', 'Copy code');
    copy.title = 'Copy this code';
    box.append(pre, copy);
  }
}

/** Marks a finished answer: its Copy button, and the text it copies. */
export function finishAnswer(root: HTMLElement, text: string): void {
  answerTexts.set(root, text);
  if (root.querySelector(':scope > .actions')) return;
  root.appendChild(actionsRow(root.ownerDocument, 'copy-answer', 'Copy', 'Copy answer', 'Copy this answer (markdown)'));
}

/**
 * Copies what a Copy button stands for to the clipboard and says on the button whether it worked; false for any other
 * button. Call it from the click itself: the user's gesture is what lets a page write the clipboard.
 */
export function copyFrom(control: HTMLButtonElement): boolean {
  const text = copiedText(control);
  if (text === undefined) return false;
  const label = (value: string): void => {
    if (control.dataset.action === 'copy-code') control.dataset.label = value;
    else control.textContent = value;
  };
  navigator.clipboard.writeText(text).then(
    () => label('Copied'),
    () => label('Copy failed'),
  );
  setTimeout(() => label('Copy'), 1500);
  return true;
}

/** The text a copy button copies: the answer's markdown, or the code of its block; undefined for other buttons. */
function copiedText(control: HTMLElement): string | undefined {
  if (control.dataset.action === 'copy-code') return control.parentElement?.querySelector('pre')?.textContent ?? '';
  if (control.dataset.action !== 'copy-answer') return undefined;
  const root = control.closest('.item');
  return root ? answerTexts.get(root) : undefined;
}

/** The element of `item` (not yet in the document); `complete` renders a finished answer as markdown. */
export function itemView(doc: Document, item: Item, complete = false): ItemView {
  const root = doc.createElement(item.type === 'reasoning' || item.type === 'toolCall' ? 'details' : 'div');
  root.className = `item ${item.type} ${item.status}`;
  root.dataset.itemId = item.id;
  if (item.turnId) root.dataset.turnId = item.turnId;
  // A live region reads an element once it is no longer busy: an answer once it is written, not delta by delta.
  if (!complete && (item.type === 'agentMessage' || item.type === 'reasoning')) root.setAttribute('aria-busy', 'true');
  let body: HTMLElement = doc.createElement('div');
  body.className = 'body';
  let stream: TextSink | undefined;
  switch (item.type) {
    case 'userMessage': {
      root.appendChild(speaker(doc, SPEAKERS.userMessage));
      body.textContent = item.content.text;
      root.appendChild(body);
      root.appendChild(
        actionsRow(
          doc,
          'edit',
          'Edit',
          'Edit and send again',
          'Put this message back in the box to change it and send it again',
        ),
      );
      return { root, body };
    }
    case 'agentMessage':
      root.appendChild(speaker(doc, SPEAKERS.agentMessage));
      if (complete && item.content.text.length <= MARKDOWN_MAX_CHARS) {
        body.className = 'body markdown';
        body.appendChild(renderMarkdown(doc, item.content.text));
        addCodeCopy(doc, body);
      } else if (complete || item.content.text.length > MARKDOWN_MAX_CHARS) {
        body.className = 'body stream';
        stream = new StreamText(body);
        stream.append(item.content.text);
      } else {
        body.className = 'body markdown streaming';
        stream = new StreamMarkdown(body);
        stream.append(item.content.text);
      }
      root.appendChild(body);
      if (complete) finishAnswer(root, item.content.text);
      return { root, body, ...(stream ? { stream } : {}) };
    case 'reasoning': {
      const summary = doc.createElement('summary');
      summary.textContent = complete ? 'Reasoning' : 'Reasoning…';
      root.appendChild(summary);
      body.className = 'body stream';
      stream = new StreamText(body);
      stream.append(item.content.text);
      break;
    }
    case 'toolCall':
      if (root instanceof HTMLDetailsElement) body = fillToolCard(root, item);
      break;
    case 'error':
      body.textContent = item.content.message;
      break;
  }
  root.appendChild(body);
  return { root, body, ...(stream ? { stream } : {}) };
}
