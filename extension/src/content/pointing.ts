/**
 * Where a user would point at an element: scrolled to the middle of the viewport, the centre of its first client
 * rect that shows (clipped to the viewport), and what is under that point (through shadow roots). Trusted input
 * (the worker, through `locate`) and synthetic input (the agent's own actions) both aim here, so a click lands on
 * what a user would hit: the `<a>` inside a `li role=tab`, or the cookie banner over a button.
 */
import { composedContains, composedParent, clip, shadowRootOf } from './dom';
import { type ViewportPoint, visibleCentre } from './geometry';
import { nameOf, roleOf } from './roles';

export type { ViewportPoint } from './geometry';

/** Where to point at an element and what is there. */
export interface Aim {
  readonly point: ViewportPoint;
  /** The element a user would hit at `point` (the target itself, a descendant, a forwarding label or ancestor). */
  readonly hit: Element;
  /** Set when something else is on top: what it is, for the model (`covered by dialog "We use cookies"`). */
  readonly covered?: string;
  /** The element on top, when covered. */
  readonly cover?: Element;
}

/** The element cannot be pointed at (no box, or none of it shows in the viewport); the message says why. */
export class AimError extends Error {
  override readonly name = 'AimError';
}

/** The viewport without scrollbars: a point on a scrollbar would scroll, not click. */
function viewport(): { width: number; height: number } {
  const root = document.documentElement;
  return {
    width: root.clientWidth > 0 ? Math.min(root.clientWidth, window.innerWidth) : window.innerWidth,
    height: root.clientHeight > 0 ? Math.min(root.clientHeight, window.innerHeight) : window.innerHeight,
  };
}

/** The deepest element at the point, descending into shadow roots (open, and closed where the extension may). */
export function deepElementFromPoint(x: number, y: number): Element | null {
  let hit = document.elementFromPoint(x, y);
  for (let depth = 0; hit && depth < 32; depth++) {
    const root = shadowRootOf(hit);
    const inner = root?.elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  return hit;
}

/**
 * Whether a user's click on `hit` reaches `target`: it is the target or inside it, a label of it (labels forward
 * their click to their control), or an ancestor of it (a control drawn by its wrapper: a hidden checkbox inside a
 * styled label, a `pointer-events: none` icon in a button).
 */
export function reaches(hit: Element, target: Element): boolean {
  if (composedContains(target, hit) || composedContains(hit, target)) return true;
  for (let n: Node | null = hit; n; n = composedParent(n)) {
    if (n instanceof HTMLLabelElement && n.control === target) return true;
  }
  return false;
}

const COVER_ROLES = new Set([
  'dialog',
  'alertdialog',
  'banner',
  'contentinfo',
  'region',
  'navigation',
  'complementary',
]);

/** The part of the page a cover belongs to: its nearest dialog-like or fixed/sticky ancestor, else itself. */
function coverOf(hit: Element): Element {
  for (let n: Node | null = hit; n && n !== document.body && n !== document.documentElement; n = composedParent(n)) {
    if (!(n instanceof Element)) continue;
    if (COVER_ROLES.has(n.getAttribute('role') ?? '') || n.getAttribute('aria-modal') === 'true') return n;
    if (n.localName === 'dialog') return n;
    const position = getComputedStyle(n).position;
    if (position === 'fixed' || position === 'sticky') return n;
  }
  return hit;
}

/** `div "We use cookies" (dialog)`: the cover's tag, its name or first words, and its role when it has one. */
export function describeCover(hit: Element): string {
  const cover = coverOf(hit);
  const role = roleOf(cover);
  const name = nameOf(cover, role) || clip(cover.textContent ?? '', 40);
  const shown = `${cover.localName}${name ? ` ${JSON.stringify(name)}` : ''}`;
  return role === 'generic' ? shown : `${shown} (${role})`;
}

/** Scrolls the element to the viewport's middle (when any of it is outside) and finds what a user would hit there. */
export function aimAt(el: Element): Aim {
  const before = el.getBoundingClientRect();
  const view = viewport();
  if (before.top < 0 || before.left < 0 || before.bottom > view.height || before.right > view.width) {
    el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  }
  const rects = el.getClientRects();
  let point = visibleCentre(rects, view.width, view.height);
  // A control drawn by its label (a zero-size checkbox under a styled label) is pointed at through the label.
  for (const label of point ? [] : labelsOf(el)) {
    point = visibleCentre(label.getClientRects(), view.width, view.height);
    if (point) break;
  }
  if (!point) {
    throw new AimError(
      rects.length === 0
        ? 'it has no box on the page (nothing of it is drawn)'
        : 'none of it shows in the viewport even after scrolling (it is clipped, empty or placed off the page)',
    );
  }
  const hit = deepElementFromPoint(point.x, point.y);
  // Nothing answers outside a frame's viewport; the element itself is then the best a synthetic event can do.
  if (!hit || reaches(hit, el)) return { point, hit: hit ?? el };
  return { point, hit, cover: hit, covered: `covered by ${describeCover(hit)}` };
}

function labelsOf(el: Element): HTMLLabelElement[] {
  const labels = (el as { labels?: NodeListOf<HTMLLabelElement> | null }).labels;
  return labels ? Array.from(labels) : [];
}

/** For an iframe or frame element: its content box's top-left in the viewport (where the frame's own (0, 0) is). */
export function frameOrigin(el: Element): ViewportPoint | undefined {
  if (!(el instanceof HTMLIFrameElement || el instanceof HTMLFrameElement)) return undefined;
  const rect = el.getBoundingClientRect();
  const style = getComputedStyle(el);
  return {
    x: rect.left + el.clientLeft + Number.parseFloat(style.paddingLeft || '0'),
    y: rect.top + el.clientTop + Number.parseFloat(style.paddingTop || '0'),
  };
}
