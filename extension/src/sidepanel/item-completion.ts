/**
 * How the transcript completes an item it showed while it streamed: it keeps the streamed text when that already is the
 * whole item (a long answer or reasoning: rebuilding it would re-layout it all for nothing), else it renders the
 * completed item in its place, an answer shown in parts around steer messages part by part.
 */
import type { AgentMessageItem, Item } from '@tether/protocol';
import { MARKDOWN_MAX_CHARS } from '../shared/markdown';
import { finishAnswer } from './item-view';
import { type Continuation, splitAt } from './steering';
import type { TextSink } from './stream-markdown';

/** One item as the transcript shows it. */
export interface Entry {
  readonly root: HTMLElement;
  readonly type: Item['type'];
  /** Where deltas go: the body of the root, or of the last continuation. */
  stream?: TextSink;
  readonly body: HTMLElement;
  /** The parts of an answer written after steer messages sent while it streamed. */
  parts?: Continuation[];
}

/** Renders an item and adds it to the list (the transcript's own `create`). */
export type CreateEntry = (item: Item, complete: boolean) => Entry;

/** Completes `old` (the item as shown, if it was) with `item`; resolves with the entry that now shows it, if replaced. */
export function completeEntry(item: Item, old: Entry | undefined, create: CreateEntry): Entry | undefined {
  if (old?.parts && item.type === 'agentMessage') {
    return completeParts(item, old, old.parts, create);
  }
  if (old?.stream && keepsStreamedText(item, old.stream.length)) {
    // The streamed text is already the whole answer: rebuilding it would re-layout it all for nothing.
    old.stream.flush?.();
    old.root.className = `item ${item.type} ${item.status}`;
    old.root.removeAttribute('aria-busy');
    const summary = old.root.querySelector('summary');
    if (summary) summary.textContent = 'Reasoning';
    if (item.type === 'agentMessage') finishAnswer(old.root, item.content.text);
    return undefined;
  }
  const entry = create(item, true);
  if (old) old.root.replaceWith(entry.root);
  return entry;
}

/** Completes an answer shown in parts around steer messages: each part shows its own piece of the final text. */
function completeParts(
  item: AgentMessageItem,
  old: Entry,
  parts: readonly Continuation[],
  create: CreateEntry,
): Entry | undefined {
  const streamed = (parts.at(-1)?.from ?? 0) + (old.stream?.length ?? 0);
  if (keepsStreamedText(item, streamed)) {
    old.stream?.flush?.();
    old.root.className = `item ${item.type} ${item.status}`;
    old.root.removeAttribute('aria-busy');
    for (const part of parts) {
      part.root.className = `item continuation ${item.status}`;
      part.root.removeAttribute('aria-busy');
    }
    finishAnswer(parts.at(-1)?.root ?? old.root, item.content.text);
    return undefined;
  }
  const [head = '', ...pieces] = splitAt(item.content.text, parts);
  const first = create({ ...item, content: { ...item.content, text: head } }, true);
  old.root.replaceWith(first.root);
  const done = parts.map((part, i) => {
    const { root } = create({ ...item, content: { ...item.content, text: pieces[i] ?? '' } }, true);
    root.className = `item continuation ${item.status}`;
    delete root.dataset.itemId;
    root.dataset.part = part.root.dataset.part;
    part.root.replaceWith(root);
    return { root, from: part.from };
  });
  // One Copy, under the last part, for the whole answer.
  const roots = [first.root, ...done.map((part) => part.root)];
  for (const root of roots.slice(0, -1)) root.querySelector(':scope > .actions')?.remove();
  finishAnswer(roots.at(-1) ?? first.root, item.content.text);
  return { ...first, parts: done };
}

function keepsStreamedText(item: Item, streamedChars: number): boolean {
  if (item.type === 'reasoning') return item.content.text.length === streamedChars;
  if (item.type !== 'agentMessage') return false;
  return item.content.text.length > MARKDOWN_MAX_CHARS && item.content.text.length === streamedChars;
}
