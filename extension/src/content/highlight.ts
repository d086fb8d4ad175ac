/**
 * The outline drawn around an element while its approval card is open: a fixed overlay that takes no pointer
 * events, inside a closed shadow root on a host appended to <html>, so page CSS and scripts cannot restyle or read
 * it. The only change the agent makes to a page's DOM; removed on request and on its own after a minute.
 */

/** The overlay disappears by itself after this long (a card left open, a worker that stopped). */
export const HIGHLIGHT_MS = 60_000;
/** Tag of the host element (walks skip it). */
export const HIGHLIGHT_TAG = 'tether-highlight';

const HOST_STYLE =
  'all:initial!important;position:fixed!important;inset:0!important;pointer-events:none!important;' +
  'z-index:2147483647!important;display:block!important;contain:strict!important';
const BOX_STYLE =
  'position:fixed;box-sizing:border-box;border:2px solid #1a73e8;border-radius:3px;' +
  'background:rgba(26,115,232,.12);box-shadow:0 0 0 2px rgba(255,255,255,.8);pointer-events:none';
const LABEL_STYLE =
  'position:absolute;left:-2px;bottom:100%;margin-bottom:2px;max-width:320px;overflow:hidden;white-space:nowrap;' +
  'text-overflow:ellipsis;font:600 12px/1.4 system-ui,sans-serif;color:#fff;background:#1a73e8;padding:1px 6px;' +
  'border-radius:3px';

/** One overlay per document. */
export class Highlighter {
  private host: HTMLElement | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly follow = (): void => this.place();
  private target: Element | null = null;
  private box: HTMLElement | null = null;

  /** The host element while shown (settle ignores its mutations). */
  get node(): HTMLElement | null {
    return this.host;
  }

  /** Outlines `el` (scrolling it into view), with an optional label above it. */
  show(el: Element, label?: string): void {
    this.hide();
    const rect = el.getBoundingClientRect();
    if (rect.top < 0 || rect.bottom > window.innerHeight) el.scrollIntoView({ block: 'center', behavior: 'instant' });
    const host = document.createElement(HIGHLIGHT_TAG);
    host.setAttribute('style', HOST_STYLE);
    const root = host.attachShadow({ mode: 'closed' });
    const box = document.createElement('div');
    box.setAttribute('style', BOX_STYLE);
    if (label) {
      const tag = document.createElement('div');
      tag.setAttribute('style', LABEL_STYLE);
      tag.textContent = label;
      box.append(tag);
    }
    root.append(box);
    document.documentElement.append(host);
    this.host = host;
    this.box = box;
    this.target = el;
    this.place();
    window.addEventListener('scroll', this.follow, { capture: true, passive: true });
    window.addEventListener('resize', this.follow, { passive: true });
    this.timer = setTimeout(() => this.hide(), HIGHLIGHT_MS);
  }

  /** Removes the overlay, if any. */
  hide(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    window.removeEventListener('scroll', this.follow, { capture: true });
    window.removeEventListener('resize', this.follow);
    this.host?.remove();
    this.host = null;
    this.box = null;
    this.target = null;
  }

  private place(): void {
    if (!this.box || !this.target) return;
    if (!this.target.isConnected) {
      this.hide();
      return;
    }
    const rect = this.target.getBoundingClientRect();
    const pad = 2;
    Object.assign(this.box.style, {
      left: `${rect.left - pad}px`,
      top: `${rect.top - pad}px`,
      width: `${rect.width + pad * 2}px`,
      height: `${rect.height + pad * 2}px`,
    });
  }
}
