/**
 * An answer shown as markdown while it streams, without re-rendering the whole answer on each delta. The text is cut
 * into blocks at blank lines outside code fences: a finished block is rendered once and never touched again; only the
 * open block (the last one) is rendered again, at most once per animation frame. Rendering goes through the same safe
 * renderer as finished answers (`renderMarkdown`: raw HTML escaped, no images, no dangerous links).
 *
 * The streaming rate must not drop (bench/sidepanel.bench.mjs, `/stream 20000`): an open block past
 * OPEN_BLOCK_MAX_CHARS (a long paragraph, a big code block still open, numbers without line breaks) is shown as plain
 * text through StreamText, with no markdown work per delta at all, until a blank line closes it.
 */
import { renderMarkdown } from '../shared/markdown';
import { StreamText } from './stream-text';

/** Past this, the open block is plain text until it closes: re-rendering it each frame would cost more than a frame. */
export const OPEN_BLOCK_MAX_CHARS = 4096;
/** A closed block longer than this stays plain text: one render of it could block the panel for a frame. */
export const CLOSED_BLOCK_MAX_CHARS = 32_768;

/** Where streamed text goes: StreamText (plain) and StreamMarkdown both are. */
export interface TextSink {
  /** Characters appended so far. */
  readonly length: number;
  /** Appends `text` at the end. */
  append(text: string): void;
  /** Shows what was appended now, not at the next frame. */
  flush?(): void;
}

/** Runs `run` once, at the next animation frame, or after 100 ms where frames do not come (a hidden page). */
function nextFrame(run: () => void): void {
  let done = false;
  const once = (): void => {
    if (done) return;
    done = true;
    run();
  };
  requestAnimationFrame(once);
  setTimeout(once, 100);
}

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/**
 * Where the finished blocks of streamed markdown end: after the last blank line outside a fenced code block. Reads
 * only the text appended, each line once when it is complete (never the whole text again: searching a string built by
 * appends flattens it, which made every delta of a 100 KB answer copy it); never parses markdown.
 */
export class BlockCuts {
  /** The current, unfinished line. */
  private line = '';
  /** Characters read so far. */
  private read = 0;
  /** The fence a code block was opened with, while inside one. */
  private fence: { readonly char: string; readonly length: number } | undefined;
  private cut = 0;

  /** Reads `added`, the text appended after what was read; returns where the finished blocks end (0: none yet). */
  scan(added: string): number {
    let from = 0;
    for (let nl = added.indexOf('\n'); nl !== -1; nl = added.indexOf('\n', from)) {
      const line = this.line + added.slice(from, nl);
      this.line = '';
      from = nl + 1;
      this.readLine(line, this.read + from);
    }
    this.line += added.slice(from);
    this.read += added.length;
    return this.cut;
  }

  /** The text lost its first `n` characters (the finished blocks, now rendered). */
  drop(n: number): void {
    this.read -= n;
    this.cut = Math.max(0, this.cut - n);
  }

  /** A complete line, which ends (newline included) at offset `end`. */
  private readLine(line: string, end: number): void {
    const fence = FENCE.exec(line);
    if (this.fence) {
      const closes = fence?.[1]?.[0] === this.fence.char && fence[1].length >= this.fence.length && !fence[2]?.trim();
      if (closes) this.fence = undefined;
    } else if (fence?.[1] && !(fence[1][0] === '`' && fence[2]?.includes('`'))) {
      this.fence = { char: fence[1][0] ?? '`', length: fence[1].length };
    } else if (line.trim() === '') {
      this.cut = end;
    }
  }
}

/** Markdown streamed into an element: finished blocks rendered once, the open block again at most once a frame. */
export class StreamMarkdown implements TextSink {
  private total = 0;
  /** The text of the open block(s): everything after the last block that was rendered for good. */
  private tail = '';
  private readonly cuts = new BlockCuts();
  /** End of the finished blocks in `tail`: what comes before it can be rendered for good. */
  private cut = 0;
  private readonly open: HTMLElement;
  /** The open block as plain text (it grew past OPEN_BLOCK_MAX_CHARS), or undefined while it is rendered. */
  private plain: StreamText | undefined;
  private scheduled = false;

  constructor(readonly element: HTMLElement) {
    this.open = element.ownerDocument.createElement('div');
    this.open.className = 'md-open';
    element.appendChild(this.open);
  }

  /** Characters appended so far. */
  get length(): number {
    return this.total;
  }

  /** Appends `text`; it shows at the next frame (at once when the open block is plain text). */
  append(text: string): void {
    if (text.length === 0) return;
    this.total += text.length;
    this.tail += text;
    this.cut = this.cuts.scan(text);
    if (this.plain && this.cut === 0) {
      this.plain.append(text);
      return;
    }
    if (!this.plain && this.cut === 0 && this.tail.length > OPEN_BLOCK_MAX_CHARS) {
      this.toPlain();
      return;
    }
    this.schedule();
  }

  /** Renders what is pending now. */
  flush(): void {
    if (!this.scheduled) return;
    this.render();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    nextFrame(() => {
      if (this.scheduled) this.render();
    });
  }

  private render(): void {
    this.scheduled = false;
    if (this.cut > 0) {
      const closed = this.tail.slice(0, this.cut);
      this.tail = this.tail.slice(this.cut);
      this.cuts.drop(this.cut);
      this.cut = 0;
      if (closed.trim()) this.element.insertBefore(this.block(closed), this.open);
      this.plain = undefined;
      if (this.tail.length > OPEN_BLOCK_MAX_CHARS) {
        this.toPlain();
        return;
      }
    }
    if (this.plain) return;
    this.open.className = 'md-open';
    this.open.replaceChildren(renderMarkdown(this.element.ownerDocument, this.tail));
  }

  /** A closed block, rendered for good: markdown, or plain text when too long to render in a frame. */
  private block(text: string): HTMLElement {
    const doc = this.element.ownerDocument;
    const el = doc.createElement('div');
    if (text.length > CLOSED_BLOCK_MAX_CHARS) {
      el.className = 'md-block plain';
      new StreamText(el).append(text);
    } else {
      el.className = 'md-block';
      el.appendChild(renderMarkdown(doc, text));
    }
    return el;
  }

  private toPlain(): void {
    this.open.className = 'md-open plain';
    this.open.replaceChildren();
    this.plain = new StreamText(this.open);
    this.plain.append(this.tail);
  }
}
