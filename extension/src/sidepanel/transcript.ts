/**
 * The conversation view, driven imperatively: deltas append to text nodes (StreamText) and the view scrolls at most
 * once per animation frame, only when the reader was already at the bottom. Nothing here reads layout per delta.
 * Answers become markdown (rendered safely) once complete.
 */
import type { Item, Turn } from '@tether/protocol';
import { MARKDOWN_MAX_CHARS, renderMarkdown } from '../shared/markdown';
import type { ViewEvent } from '../shared/events';
import { StreamText } from './stream-text';
import { errorMessage } from '@tether/protocol';

interface Entry {
  readonly root: HTMLElement;
  readonly type: Item['type'];
  readonly stream?: StreamText;
  readonly body: HTMLElement;
}

/** Shortens long JSON for display. */
function show(value: unknown, max = 4000): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}\n… (${text.length - max} more characters)` : text;
}

/** A tool result as people read it: the text of `[{type:'text', text}]` content, otherwise the value itself. */
function toolText(result: unknown): unknown {
  if (!Array.isArray(result)) return result;
  const parts = result.map((piece: unknown) => {
    if (typeof piece !== 'object' || piece === null || !('type' in piece)) return undefined;
    if (piece.type === 'text' && 'text' in piece && typeof piece.text === 'string') return piece.text;
    if (piece.type === 'image') return `[image ${'mimeType' in piece ? String(piece.mimeType) : ''}]`;
    return undefined;
  });
  return parts.every((p) => p !== undefined) ? parts.join('\n') : result;
}

/** How close to the top (px) the reader scrolls before the next older page is asked for. */
const NEAR_TOP_PX = 200;

/** Renders a thread's items into a scrolling container. */
export class Transcript {
  private readonly entries = new Map<string, Entry>();
  private stick = true;
  private scrollQueued = false;
  private readonly doc: Document;
  /** Called when the reader scrolls near the top (or the items do not fill the view): time for an older page. */
  onNearTop: () => void = () => undefined;

  constructor(
    private readonly scroller: HTMLElement,
    private readonly list: HTMLElement,
  ) {
    this.doc = list.ownerDocument;
    scroller.addEventListener('scroll', () => {
      this.stick = scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 24;
      if (scroller.scrollTop < NEAR_TOP_PX) this.onNearTop();
    });
  }

  /** Puts an older page above what is shown, keeping the reader's place (the view does not jump). */
  prepend(items: readonly Item[]): void {
    const before = this.scroller.scrollHeight;
    const page = this.doc.createDocumentFragment();
    for (const item of items) {
      if (this.entries.has(item.id)) continue;
      const entry = this.create(item, true);
      page.appendChild(entry.root);
      this.entries.set(item.id, entry);
    }
    this.list.insertBefore(page, this.list.firstChild);
    this.scroller.scrollTop += this.scroller.scrollHeight - before;
    this.checkFilled();
  }

  /** Asks for an older page when there is no scrollbar yet: a reader cannot scroll up to ask. */
  private checkFilled(): void {
    requestAnimationFrame(() => {
      if (this.scroller.scrollHeight <= this.scroller.clientHeight + NEAR_TOP_PX) this.onNearTop();
    });
  }

  /** Replaces everything with a snapshot's items. */
  reset(items: readonly Item[]): void {
    this.entries.clear();
    this.list.replaceChildren();
    for (const item of items) {
      // An item still being written (a running turn) keeps streaming: its later deltas append to it.
      if (item.status === 'inProgress') this.entries.set(item.id, this.create(item));
      else this.completeItem(item);
    }
    this.stick = true;
    this.queueScroll();
    this.checkFilled();
  }

  /** Applies one batch of events, in order. Returns the turn changes seen (for the composer's state). */
  apply(events: readonly ViewEvent[]): { started?: Turn; completed?: Turn } {
    const seen: { started?: Turn; completed?: Turn } = {};
    // Consecutive deltas of one item (most of a host batch) become one append: one DOM write per batch, not per delta.
    let run: { itemId: string; reasoning: boolean; parts: string[] } | undefined;
    const flush = (): void => {
      if (run) this.appendDelta(run.itemId, run.parts.join(''), run.reasoning);
      run = undefined;
    };
    for (const e of events) {
      if (e.method === 'item/agentMessage/delta' || e.method === 'item/reasoning/delta') {
        const { itemId, delta } = e.params;
        const reasoning = e.method === 'item/reasoning/delta';
        if (run && (run.itemId !== itemId || run.reasoning !== reasoning)) flush();
        run ??= { itemId, reasoning, parts: [] };
        run.parts.push(delta);
        continue;
      }
      flush();
      try {
        this.applyOne(e, seen);
      } catch (error) {
        // A malformed event from a backend must not stop the rest of the stream.
        this.addNote('error', `Could not show ${e.method}: ${errorMessage(error)}`);
      }
    }
    flush();
    this.queueScroll();
    return seen;
  }

  private applyOne(e: ViewEvent, seen: { started?: Turn; completed?: Turn }): void {
    switch (e.method) {
      case 'item/started':
        this.startItem(e.params.item);
        break;
      case 'item/completed':
        this.completeItem(e.params.item);
        break;
      case 'turn/started':
        seen.started = e.params.turn;
        break;
      case 'turn/completed': {
        const { turn } = e.params;
        seen.completed = turn;
        if (turn.status === 'failed')
          this.addNote('error', `The turn failed: ${turn.error?.message ?? 'no reason given'}`);
        if (turn.status === 'interrupted') this.addNote('note', 'Stopped.');
        break;
      }
      case 'approval/resolved': {
        const outcome = e.params.decision;
        if (outcome === 'cancelled' || outcome === 'timeout')
          this.addNote('note', `An approval was ${outcome === 'timeout' ? 'timed out' : 'withdrawn'}.`);
        break;
      }
      case 'error':
        this.addNote('error', e.params.message);
        break;
      case 'warning':
        this.addNote('note', e.params.message);
        break;
    }
  }

  /** Adds a line that is not part of the thread (a rule decision, an error). */
  addNote(kind: 'note' | 'error' | 'rule', text: string): void {
    const el = this.doc.createElement('div');
    el.className = `item ${kind}`;
    el.textContent = text;
    this.list.appendChild(el);
    this.queueScroll();
  }

  /** Number of items shown. */
  get size(): number {
    return this.entries.size;
  }

  private startItem(item: Item): void {
    if (this.entries.has(item.id)) return;
    this.entries.set(item.id, this.create(item));
  }

  private appendDelta(itemId: string, delta: string, reasoning: boolean): void {
    let entry = this.entries.get(itemId);
    if (!entry) {
      // A delta before its item/started (should not happen, but never lose text).
      const item = { id: itemId, status: 'inProgress', createdAtMs: Date.now(), content: { text: '' } } as const;
      entry = this.create(reasoning ? { ...item, type: 'reasoning' } : { ...item, type: 'agentMessage' });
      this.entries.set(itemId, entry);
    }
    entry.stream?.append(delta);
  }

  private completeItem(item: Item): void {
    const old = this.entries.get(item.id);
    if (old?.stream && this.keepsStreamedText(item, old.stream.length)) {
      // The streamed text is already the whole answer: rebuilding it would re-layout it all for nothing.
      old.root.className = `item ${item.type} ${item.status}`;
      const summary = old.root.querySelector('summary');
      if (summary) summary.textContent = 'Reasoning';
      return;
    }
    const entry = this.create(item, true);
    if (old) old.root.replaceWith(entry.root);
    this.entries.set(item.id, entry);
  }

  private keepsStreamedText(item: Item, streamedChars: number): boolean {
    if (item.type === 'reasoning') return item.content.text.length === streamedChars;
    if (item.type !== 'agentMessage') return false;
    return item.content.text.length > MARKDOWN_MAX_CHARS && item.content.text.length === streamedChars;
  }

  private create(item: Item, complete = false): Entry {
    const doc = this.doc;
    const root = doc.createElement(item.type === 'reasoning' ? 'details' : 'div');
    root.className = `item ${item.type} ${item.status}`;
    root.dataset.itemId = item.id;
    let body: HTMLElement = doc.createElement('div');
    body.className = 'body';
    let stream: StreamText | undefined;
    let after: HTMLElement | undefined;
    switch (item.type) {
      case 'userMessage':
        body.textContent = item.content.text;
        break;
      case 'agentMessage':
        if (complete && item.content.text.length <= MARKDOWN_MAX_CHARS) {
          body.className = 'body markdown';
          body.appendChild(renderMarkdown(doc, item.content.text));
        } else {
          body.className = 'body stream';
          stream = new StreamText(body);
          stream.append(item.content.text);
        }
        break;
      case 'reasoning': {
        const summary = doc.createElement('summary');
        summary.textContent = complete ? 'Reasoning' : 'Reasoning…';
        root.appendChild(summary);
        body.className = 'body stream';
        stream = new StreamText(body);
        stream.append(item.content.text);
        break;
      }
      case 'toolCall': {
        const c = item.content;
        const head = doc.createElement('div');
        head.className = 'tool-head';
        head.textContent = `${c.toolName} · ${item.status === 'inProgress' ? 'running' : item.status}`;
        root.appendChild(head);
        body = doc.createElement('pre');
        body.className = 'body args';
        body.textContent = show(c.arguments ?? {});
        // What the agent ran stays visible with its outcome: the result goes after the arguments, never instead.
        if (c.result !== undefined || c.error) {
          const result = doc.createElement('pre');
          result.className = c.error ? 'result failed' : 'result';
          result.textContent = c.error ? c.error : show(toolText(c.result));
          after = result;
        }
        break;
      }
      case 'error':
        body.textContent = item.content.message;
        break;
    }
    root.appendChild(body);
    if (after) root.appendChild(after);
    this.list.appendChild(root);
    return { root, type: item.type, body, ...(stream ? { stream } : {}) };
  }

  private queueScroll(): void {
    if (this.scrollQueued || !this.stick) return;
    this.scrollQueued = true;
    requestAnimationFrame(() => {
      this.scrollQueued = false;
      if (this.stick) this.scroller.scrollTop = this.scroller.scrollHeight;
    });
  }
}
