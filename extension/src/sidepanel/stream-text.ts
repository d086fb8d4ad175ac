/**
 * Appends streamed text without quadratic work. `appendData` copies the whole node, so a new Text node starts every
 * few KB; and since the browser lays out one block's text as a whole on every frame, a new block starts after a line
 * break once the current block is long (a break at a newline looks the same under `white-space: pre-wrap`), or after
 * a space when a block has no line break at all. Never reads layout.
 */

/** Characters per text node before a new one starts. */
export const TEXT_NODE_CHARS = 4096;
/** Characters per block before the next line break starts a new block. */
export const BLOCK_CHARS = 16_384;
/** Past this, a block without line breaks is cut at a space (one early wrap is cheaper than re-laying out 100 KB). */
export const MAX_BLOCK_CHARS = 32_768;

/** A growing run of text inside one element. */
export class StreamText {
  private block: HTMLElement;
  private blockChars = 0;
  private node: Text | undefined;
  private nodeChars = 0;
  private total = 0;

  constructor(readonly element: HTMLElement) {
    this.block = this.newBlock();
  }

  /** Characters appended so far. */
  get length(): number {
    return this.total;
  }

  /** Appends `text` at the end. */
  append(text: string): void {
    if (text.length === 0) return;
    if (text.length > TEXT_NODE_CHARS) {
      // A whole history item or a huge delta: several nodes, so later layout and appends stay cheap.
      for (let i = 0; i < text.length; i += TEXT_NODE_CHARS) this.append(text.slice(i, i + TEXT_NODE_CHARS));
      return;
    }
    if (this.blockChars >= BLOCK_CHARS) {
      let cut = text.lastIndexOf('\n');
      if (cut === -1 && this.blockChars >= MAX_BLOCK_CHARS) cut = text.lastIndexOf(' ');
      if (cut !== -1) {
        this.appendToBlock(text.slice(0, cut + 1));
        this.block = this.newBlock();
        this.blockChars = 0;
        this.node = undefined;
        this.appendToBlock(text.slice(cut + 1));
        return;
      }
    }
    this.appendToBlock(text);
  }

  private appendToBlock(text: string): void {
    if (text.length === 0) return;
    // A large piece gets a node of its own: cheaper than appending to (and re-measuring) a node that has text.
    if (!this.node || this.nodeChars >= TEXT_NODE_CHARS || text.length >= 512) {
      this.node = this.element.ownerDocument.createTextNode(text);
      this.nodeChars = text.length;
      this.block.appendChild(this.node);
    } else {
      this.node.appendData(text);
      this.nodeChars += text.length;
    }
    this.blockChars += text.length;
    this.total += text.length;
  }

  private newBlock(): HTMLElement {
    const block = this.element.ownerDocument.createElement('div');
    block.className = 'stream-block';
    this.element.appendChild(block);
    return block;
  }
}
