/**
 * Appends streamed text without quadratic copying: `appendData` copies the whole node, so a new Text node starts
 * every few KB. Never reads layout.
 */

/** Characters per text node before a new one starts. */
export const TEXT_NODE_CHARS = 4096;

/** A growing run of text inside one element. */
export class StreamText {
  private node: Text | undefined;
  private nodeChars = 0;
  private total = 0;

  constructor(readonly element: HTMLElement) {}

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
    if (!this.node || this.nodeChars >= TEXT_NODE_CHARS) {
      this.node = this.element.ownerDocument.createTextNode(text);
      this.nodeChars = text.length;
      this.element.appendChild(this.node);
    } else {
      this.node.appendData(text);
      this.nodeChars += text.length;
    }
    this.total += text.length;
  }
}
