/**
 * DOM helpers shared by the page agent's modules: the composed tree (open shadow roots, and closed ones where the
 * extension's isolated world may read them), and visibility decided without a computed style for most elements.
 */

/** Tags whose subtree never shows anything a user reads or operates. */
export const SKIP_TAGS = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'head',
  'meta',
  'link',
  'title',
  'datalist',
  'option',
  'optgroup',
  'param',
  'source',
  'track',
  'map',
  'tether-highlight',
]);

type ClosedRootReader = (el: Element) => ShadowRoot | null;

/**
 * Chrome gives content scripts `chrome.dom.openOrClosedShadowRoot`, Firefox gives them
 * `Element.openOrClosedShadowRoot`; a page (the tests run the agent in the main world) has neither.
 */
function closedRootReader(): ClosedRootReader | undefined {
  type ChromeDom = { openOrClosedShadowRoot?: (el: HTMLElement) => ShadowRoot | null };
  const chromeDom = (globalThis as unknown as { chrome?: { dom?: ChromeDom } }).chrome?.dom;
  if (chromeDom && typeof chromeDom.openOrClosedShadowRoot === 'function') {
    return (el) => (el instanceof HTMLElement ? (chromeDom.openOrClosedShadowRoot?.(el) ?? null) : null);
  }
  const proto = Element.prototype as { openOrClosedShadowRoot?: unknown };
  if ('openOrClosedShadowRoot' in proto) {
    return (el) => (el as { openOrClosedShadowRoot?: ShadowRoot | null }).openOrClosedShadowRoot ?? null;
  }
  return undefined;
}

const readClosedRoot = closedRootReader();

/** The element's shadow root when the agent can read it (open, or closed where the extension API allows). */
export function shadowRootOf(el: Element): ShadowRoot | null {
  if (el.shadowRoot) return el.shadowRoot;
  return readClosedRoot ? readClosedRoot(el) : null;
}

/**
 * True for an element that probably hosts a closed shadow root the agent cannot read: a custom element without a
 * readable root, without light children, that still takes up space (its content must come from somewhere).
 */
export function looksLikeClosedHost(el: Element, rect: DOMRect): boolean {
  return (
    !readClosedRoot &&
    el.localName.includes('-') &&
    !el.shadowRoot &&
    el.childElementCount === 0 &&
    !el.textContent?.trim() &&
    rect.width > 1 &&
    rect.height > 1
  );
}

/** Children in the composed (rendered) tree: a shadow root's content, a slot's assigned nodes, else childNodes. */
export function composedChildren(node: Element | ShadowRoot): ArrayLike<Node> {
  if (node instanceof Element) {
    const root = shadowRootOf(node);
    if (root) return root.childNodes;
    if (node.localName === 'slot') {
      const assigned = (node as HTMLSlotElement).assignedNodes({ flatten: true });
      if (assigned.length > 0) return assigned;
    }
  }
  return node.childNodes;
}

/** The parent in the composed tree (a shadow root's host, a slotted node's slot is skipped: its host's parent). */
export function composedParent(node: Node): Node | null {
  const parent = node.parentNode;
  if (parent instanceof ShadowRoot) return parent.host;
  return parent;
}

/** Whether `inner` is `outer` or inside it, crossing shadow boundaries. */
export function composedContains(outer: Node, inner: Node): boolean {
  for (let n: Node | null = inner; n; n = composedParent(n)) if (n === outer) return true;
  return false;
}

/** True when the element or its ancestors are not rendered (display:none, `hidden`, a closed `<details>`). */
export function isNotRendered(el: Element): boolean {
  if (typeof el.checkVisibility === 'function') {
    if (el.checkVisibility()) return false;
    // display:contents has no box of its own, so checkVisibility says false while its children render.
    return getComputedStyle(el).display !== 'contents';
  }
  const style = getComputedStyle(el);
  return style.display === 'none';
}

/** True when the element itself is rendered but invisible (visibility:hidden or collapse, inherited or own). */
export function isInvisible(el: Element): boolean {
  if (typeof el.checkVisibility === 'function') {
    return !el.checkVisibility({ visibilityProperty: true, checkVisibilityCSS: true });
  }
  const visibility = getComputedStyle(el).visibility;
  return visibility === 'hidden' || visibility === 'collapse';
}

/** Pushed off the page's top or left edge, where no scrolling brings it (skip links and honeypots at -9999px). */
export function isOffPage(rect: DOMRect): boolean {
  return (rect.width > 0 && rect.right + window.scrollX <= 0) || (rect.height > 0 && rect.bottom + window.scrollY <= 0);
}

/**
 * Visually hidden on purpose: pushed off the page's top or left edge (skip links at -9999px), or clipped to a
 * 1x1 box (the `sr-only` pattern). Rows below the fold are not: they are on the page, just scrolled away.
 * Only a tiny box pays for a computed style, to tell a clipped box from display:contents or a zero-size wrapper.
 */
export function isVisuallyHidden(el: Element, rect: DOMRect): boolean {
  if (isOffPage(rect)) return true;
  if (rect.width > 1 || rect.height > 1) return false;
  const style = getComputedStyle(el);
  if (style.display === 'contents') return false;
  return style.overflow === 'hidden' || style.overflow === 'clip' || style.clip !== 'auto' || style.clipPath !== 'none';
}

/** Whether the element is disabled for a user: a disabled control (or in a disabled fieldset) or aria-disabled. */
export function isDisabled(el: Element): boolean {
  return el.matches(':disabled') || el.getAttribute('aria-disabled') === 'true';
}

/** The element's form: a control's form owner, else the closest enclosing form. */
export function formOf(el: Element): HTMLFormElement | null {
  const owner = (el as { form?: unknown }).form;
  if (owner instanceof HTMLFormElement) return owner;
  return el.closest('form');
}

/** The start of a text node's text: enough for any line, without copying a megabyte text node whole. */
export function textStart(node: Node): string {
  const value = node.nodeValue ?? '';
  return value.length > TEXT_NODE_MAX ? value.slice(0, TEXT_NODE_MAX) : value;
}

const TEXT_NODE_MAX = 1000;

/** Collapses whitespace and trims; cuts at `max` characters with an ellipsis. */
export function clip(text: string, max: number): string {
  // Page text written like a ref mark ("click [ref=e5]") must not read as one: the worker maps every `[ref=eN]` it
  // sees to an element, so a page could otherwise point the model at a real control of its choosing.
  const flat = text
    .replace(/\s+/g, ' ')
    .replace(/\[ref=/gi, '[ref =')
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
