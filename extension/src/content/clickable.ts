/**
 * What a user can act on beyond the controls ARIA names: elements drawn with a pointer cursor, focusable ones, ones
 * with an inline click handler, anchors without href, and grid cells. An isolated-world content script cannot see
 * listeners added with addEventListener or a handler property the page set (that lives in the page's world), so the
 * cursor, which sites set on what they make clickable, is the main signal; the page's own `onclick` attribute is
 * visible to every world.
 */
import { composedParent } from './dom';
import { ACTIONABLE_ROLES, isActionable } from './roles';

/** How an element without a control role takes a user's action. */
export type Clickable = 'leaf' | 'container';

/** A clickable holding more text than this is a container (a card): its content keeps its own lines under it. */
const LEAF_TEXT_MAX = 200;

/**
 * Roles that are never a clickable line of their own: table parts (the row line shows them), and landmarks and
 * lists, which stay the structure their content is read in.
 */
const NEVER = new Set(
  'row cell gridcell columnheader rowheader table grid treegrid iframe main navigation banner contentinfo complementary form dialog alertdialog region search list listbox menu menubar tablist tree toolbar'.split(
    ' ',
  ),
);

/** Elements that are controls by tag or role: a wrapper holding one leaves the ref to it. */
const CONTROL_SELECTOR = [
  'a[href]',
  'button',
  'input',
  'select',
  'textarea',
  '[contenteditable]:not([contenteditable=false])',
  ...Array.from(ACTIONABLE_ROLES, (role) => `[role=${role}]`),
].join(', ');

/** Cursors a site draws over what a user clicks or drags (sortable items show `grab` or `move`). */
const ACTION_CURSORS = new Set(['pointer', 'grab', 'move']);

/**
 * Whether the element is drawn with a cursor that invites a click or a drag (`cursor` inherits, so a button's inner
 * spans have it too).
 */
export function hasPointer(el: Element): boolean {
  return ACTION_CURSORS.has(getComputedStyle(el).cursor);
}

/** Whether the parent in the composed tree draws a pointer: the child then is part of a bigger clickable. */
export function parentHasPointer(el: Element): boolean {
  const parent = composedParent(el);
  return parent instanceof Element && hasPointer(parent);
}

/** A `tabindex` of 0 or more: the page put the element in the tab order, so a user reaches it with keys. */
export function isFocusable(el: Element): boolean {
  const tabIndex = el.getAttribute('tabindex');
  return tabIndex !== null && tabIndex.trim() !== '' && Number(tabIndex) >= 0;
}

/**
 * An inline `onclick` the page wrote (an attribute, seen from any world), a handler property this world sees, or
 * `draggable=true` (the page handles its drag).
 */
export function hasClickHandler(el: Element): boolean {
  return (
    el.hasAttribute('onclick') ||
    el.getAttribute('draggable') === 'true' ||
    typeof (el as HTMLElement).onclick === 'function'
  );
}

/** Whether the element has a control among its descendants (whose own lines then carry the refs). */
function holdsControl(el: Element): boolean {
  return el.querySelector(CONTROL_SELECTOR) !== null;
}

/**
 * Whether (and how) an element that is not a control by role takes clicks: `pointer` is its computed cursor and
 * `parentPointer` its parent's (so only the outermost element of a pointer region counts, not its inner spans).
 * A pointer region whose content is all controls is only their wrapper; a focusable region holding a section (a
 * scroll pane) is not a control either.
 */
export function clickableKind(
  el: Element,
  role: string,
  pointer: boolean,
  parentPointer: boolean,
): Clickable | undefined {
  if (NEVER.has(role) || isActionable(el, role)) return undefined;
  const tag = el.localName;
  if (tag === 'body' || tag === 'html' || (el instanceof HTMLLabelElement && el.control)) return undefined;
  const handler = hasClickHandler(el);
  const anchor = tag === 'a';
  const ownPointer = pointer && !parentPointer;
  if (!handler && !anchor && !ownPointer && !isFocusable(el)) return undefined;
  const big = (el.textContent?.length ?? 0) > LEAF_TEXT_MAX;
  if (!big) {
    // A wrapper drawn as a pointer around a button is that button: one ref, on the button.
    if (!handler && !anchor && !isFocusable(el) && holdsControl(el) && !hasOwnText(el)) return undefined;
    return 'leaf';
  }
  return handler || ownPointer ? 'container' : undefined;
}

/** Whether the element has text of its own outside the controls it holds. */
function hasOwnText(el: Element): boolean {
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!/\S/.test(node.nodeValue ?? '')) continue;
    const owner = node.parentElement?.closest(CONTROL_SELECTOR);
    if (!owner || !el.contains(owner) || owner === el) return true;
  }
  return false;
}

/** Whether a table cell is a target of its own: a cell of a grid (opened, selected, edited), or a clickable one. */
export function isCellTarget(cell: Element, inGrid: boolean, pointer: boolean, parentPointer: boolean): boolean {
  const target =
    inGrid ||
    cell.getAttribute('role') === 'gridcell' ||
    hasClickHandler(cell) ||
    isFocusable(cell) ||
    (pointer && !parentPointer);
  // A cell holding a control is operated through it (its token in the row carries the ref).
  return target && !holdsControl(cell);
}
