/**
 * Keeps the reader's place in the transcript while what it shows changes size (streamed deltas, an answer re-rendered
 * as markdown, an older page put above, items sized by `content-visibility`, a resized panel): at the bottom while the
 * reader follows it, otherwise the item they were reading stays where it was on screen.
 *
 * Following the bottom is a state that only the reader changes by scrolling. Recomputing it from geometry after a
 * height changed is what made the view jump: an answer swapped for its markdown briefly collapsed to a 120 px
 * placeholder, the browser clamped scrollTop, and the scroll event that followed turned following off (3 runs in 4
 * landed 800-2,500 px up). Corrections run in a ResizeObserver callback, after layout and before paint, so no frame
 * shows the wrong place; the browser's own scroll anchoring is off (`overflow-anchor: none`) so only one mechanism
 * moves the view.
 */

/** How close to the bottom (px) still counts as "at the bottom". */
const BOTTOM_SLACK_PX = 4;
/** How long after a wheel turn or a key press a scroll counts as the reader's. */
const INTENT_MS = 300;

/** The item the reader is looking at: its key (elements are replaced on re-render) and its offset from the top. */
interface Anchor {
  readonly key: string | undefined;
  readonly element: Element;
  readonly offset: number;
}

/** Follows the bottom of `scroller`, or holds the reader's line, while `content` (inside it) changes size. */
export class ScrollKeeper {
  private following = true;
  private anchor: Anchor | undefined;
  private lastTop = 0;
  private lastHeight = 0;
  private lastClient = 0;
  private pointerDown = false;
  private intentUntil = 0;

  /**
   * `items` is the element whose children are the items; `keyOf`/`find` name an item element by a key that survives
   * its replacement (an answer re-rendered as markdown is a new element with the same key).
   */
  constructor(
    private readonly scroller: HTMLElement,
    content: HTMLElement,
    private readonly items: HTMLElement,
    private readonly keyOf: (element: Element) => string | undefined,
    private readonly find: (key: string) => Element | undefined,
    private readonly onFollowChange: (following: boolean) => void = () => undefined,
  ) {
    const win = scroller.ownerDocument.defaultView ?? globalThis;
    const intent = (): void => {
      this.intentUntil = performance.now() + INTENT_MS;
    };
    scroller.addEventListener(
      'wheel',
      (e) => {
        intent();
        // Turning the wheel up is the reader leaving the bottom, whenever the scroll it causes lands: on a busy
        // machine that can be more than INTENT_MS later, and a stream growing meanwhile kept the view following.
        if (e.deltaY < 0 && scroller.scrollTop > 0) this.leaveBottom();
      },
      { passive: true },
    );
    scroller.addEventListener('keydown', intent);
    scroller.addEventListener('pointerdown', () => (this.pointerDown = true));
    const release = (): void => {
      if (!this.pointerDown) return;
      this.pointerDown = false;
      intent();
    };
    win.addEventListener('pointerup', release);
    win.addEventListener('pointercancel', release);
    scroller.addEventListener('scroll', () => this.onScroll(), { passive: true });
    new ResizeObserver(() => this.keep()).observe(content);
    new ResizeObserver(() => this.keep()).observe(scroller);
  }

  /** Follows the bottom from now on (a new thread or snapshot starts at its end, or the reader jumps to it). */
  followBottom(): void {
    this.setFollowing(true);
    this.anchor = undefined;
    this.toBottom();
    requestAnimationFrame(() => this.keep());
  }

  private leaveBottom(): void {
    this.setFollowing(false);
    this.anchor = this.findAnchor();
    this.remember();
  }

  private setFollowing(following: boolean): void {
    if (following === this.following) return;
    this.following = following;
    this.onFollowChange(following);
  }

  private intended(): boolean {
    return this.pointerDown || performance.now() < this.intentUntil;
  }

  private onScroll(): void {
    const s = this.scroller;
    const top = s.scrollTop;
    const height = s.scrollHeight;
    const client = s.clientHeight;
    const atBottom = top + client >= height - BOTTOM_SLACK_PX;
    // The browser moved the view because the content or the viewport changed size (an answer re-rendered whole shrinks
    // for a moment and scrollTop is clamped): that is layout, not the reader. It neither starts following (the clamp
    // can land at the bottom) nor moves the anchor; the resize observer puts the view back where the reader was.
    if (!this.intended() && (height !== this.lastHeight || client !== this.lastClient)) {
      if (this.following && !atBottom) this.toBottom();
      else this.remember();
      return;
    }
    // Up with the same content and viewport can only be the reader (or a script acting for them); a size change
    // without the reader's hand on wheel, keys or scrollbar is layout, and does not end following.
    const movedUp =
      top < this.lastTop && (this.intended() || (height === this.lastHeight && client === this.lastClient));
    if (atBottom) this.setFollowing(true);
    else if (movedUp || (this.intended() && top !== this.lastTop)) this.setFollowing(false);
    if (this.following && !atBottom) this.toBottom();
    else if (!this.following) this.anchor = this.findAnchor();
    this.remember();
  }

  /** Puts the view back where the reader expects it after a size change. */
  private keep(): void {
    if (this.following) {
      this.toBottom();
      return;
    }
    const anchor = this.anchor;
    if (!anchor) return;
    const element = anchor.key === undefined ? anchor.element : this.find(anchor.key);
    if (!element?.isConnected) {
      this.anchor = this.findAnchor();
      return;
    }
    const drift = this.offsetOf(element) - anchor.offset;
    if (drift !== 0) this.scroller.scrollTop += drift;
    this.remember();
  }

  private toBottom(): void {
    const s = this.scroller;
    s.scrollTop = s.scrollHeight;
    this.remember();
  }

  private remember(): void {
    this.lastTop = this.scroller.scrollTop;
    this.lastHeight = this.scroller.scrollHeight;
    this.lastClient = this.scroller.clientHeight;
  }

  private offsetOf(element: Element): number {
    return element.getBoundingClientRect().top - this.scroller.getBoundingClientRect().top;
  }

  /** The first item whose bottom is below the top of the view (binary search: items are in order on screen). */
  private findAnchor(): Anchor | undefined {
    const children = this.items.children;
    if (children.length === 0) return undefined;
    const viewTop = this.scroller.getBoundingClientRect().top;
    let lo = 0;
    let hi = children.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const child = children[mid];
      if (child && child.getBoundingClientRect().bottom <= viewTop) lo = mid + 1;
      else hi = mid;
    }
    const element = children[lo];
    if (!element) return undefined;
    return { key: this.keyOf(element), element, offset: element.getBoundingClientRect().top - viewTop };
  }
}
