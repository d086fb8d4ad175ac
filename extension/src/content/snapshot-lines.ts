/**
 * How one element is written as a snapshot line: a control or clickable with its role, name, states, ref and value,
 * and the text a block shows itself.
 */
import { clip, composedChildren, isNotRendered, isVisuallyHidden, textStart } from './dom';
import { fieldValue, inputType, NAME_MAX, nameOf, statesOf, textOf } from './roles';

/** Longest text line; an article's paragraphs are for orientation, page_read gives the full text. */
export const TEXT_MAX = 100;

/** Tags whose text flows into their parent's text line. */
export const INLINE_TAGS = new Set(
  'a abbr b bdi bdo br cite code data del dfn em font i img ins kbd label mark q s samp small span strong sub sup time u var wbr'.split(
    ' ',
  ),
);
/** Input types whose kind the line names, as the value format depends on it. */
const SHOWN_TYPES = new Set([
  'email',
  'tel',
  'url',
  'date',
  'time',
  'datetime-local',
  'month',
  'week',
  'color',
  'file',
]);

/** The focused element, through shadow roots. */
export function deepActiveElement(): Element | null {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

/** A link's destination as shown: a path for the page's own origin, the full URL for another, none for scripts. */
export function linkUrl(el: Element): string | undefined {
  const href = (el as HTMLAnchorElement).href;
  if (typeof href !== 'string' || !href) return undefined;
  try {
    const url = new URL(href);
    if (url.protocol === 'javascript:') return undefined;
    const shown = url.origin === location.origin ? `${url.pathname}${url.search}${url.hash}` : url.href;
    return clip(shown, 150);
  } catch {
    return undefined;
  }
}

/** The role word of an element that takes clicks without a control role: its own role, `clickable` for a generic. */
export function clickableRole(role: string): string {
  return role === 'generic' ? 'clickable' : role;
}

/** The name of a clickable: its accessible name, else its text (a listitem or paragraph has no name of its own). */
export function clickableName(el: Element, role: string): string {
  return nameOf(el, role) || clip(textOf(el), NAME_MAX);
}

/** A class name that reads as words (`prev-month`), not a generated hash (`css-1x2y3z`). */
const WORDY_CLASS = /^[a-z][a-z]+(?:[-_][a-z]+)*$/i;

/**
 * What an unnamed clickable (an icon: an arrow, a cross) is called by its page's first wordy class, as `[class=...]`:
 * the only hint a model has of what `clickable [ref=e3]` does.
 */
export function classHint(el: Element): string {
  for (const name of el.classList) if (name.length <= 40 && WORDY_CLASS.test(name)) return ` [class=${name}]`;
  return '';
}

/** Roles written without their role word inside a table row (`"Edit" [ref=e2]`): a quoted name with a ref is a control. */
const BARE_IN_ROW = new Set(['button', 'link', 'clickable']);
/** Roles written without their name inside a table row: the row says which one it is. */
const UNNAMED_IN_ROW = new Set(['checkbox', 'radio', 'switch']);

/**
 * The line of an actionable element: `role "name" [states] [ref=eN] /url: ... : value`. `inRow` is the compact
 * token inside a table row: buttons and links without their role word or URL, checkboxes without their name. A value
 * cut short says how long it is and how to read it whole. `name` overrides the accessible name (clickables).
 */
export function controlLine(
  el: Element,
  role: string,
  ref: string | undefined,
  active: Element | null,
  inRow = false,
  name = inRow && UNNAMED_IN_ROW.has(role) ? '' : nameOf(el, role),
): string {
  let line = inRow && name && BARE_IN_ROW.has(role) ? JSON.stringify(name) : role;
  if (name && line === role) line += ` ${JSON.stringify(name)}`;
  for (const state of statesOf(el, role)) line += ` [${state}]`;
  const type = inputType(el);
  if (SHOWN_TYPES.has(type)) line += ` [type=${type}]`;
  const { value, password, total } = fieldValue(el);
  if (password) line += ' [password]';
  if (el === active) line += ' [active]';
  if (ref) line += ` [ref=${ref}]`;
  if (role === 'link' && !inRow) {
    const url = linkUrl(el);
    if (url) line += ` /url: ${url}`;
  }
  if (value !== undefined) line += `: ${value}`;
  if (total !== undefined) line += ` [cut: ${total} chars; page_read with this ref reads all]`;
  return line;
}

/** Whether the element's text flows into its parent's text line (a label of a control has lines of its own). */
export function isInlineText(el: Element): boolean {
  return INLINE_TAGS.has(el.localName) && !(el instanceof HTMLLabelElement && el.control);
}

/** Targets in one text run from which on, when they hold most of its text, the line keeps only the rest. */
const SEVERAL_TARGETS = 3;

/**
 * The text an element shows itself: its text nodes and those of inline children (links included, for the reading
 * flow), but empty when all of it is the text of controls and clickables (`isTarget`), which have lines of their own.
 * When most of it is theirs and they are several (a row of calendar days, a few of them disabled), only the rest is kept: the days would
 * otherwise run together into one number ("2829301234...") beside their own lines.
 */
export function ownText(el: Element, isTarget: (kid: Element) => boolean): string {
  let text = '';
  let rest = '';
  let targetChars = 0;
  let targets = 0;
  let plain = false;
  const walk = (node: Element, inControl: boolean): void => {
    const kids = composedChildren(node);
    for (let i = 0; i < kids.length && text.length < TEXT_MAX * 3; i++) {
      const kid = kids[i] as Node;
      if (kid.nodeType === Node.TEXT_NODE) {
        const value = textStart(kid);
        if (!inControl && !plain && /\S/.test(value)) plain = true;
        text += value;
        if (inControl) targetChars += value.length;
        else rest += value;
        continue;
      }
      if (!(kid instanceof Element) || !isInlineText(kid)) continue;
      if (kid.getAttribute('aria-hidden') === 'true' || isNotRendered(kid)) continue;
      if (isVisuallyHidden(kid, kid.getBoundingClientRect())) continue;
      if (kid.localName === 'img') text += ` ${kid.getAttribute('alt') ?? ''} `;
      else if (kid.localName === 'br') text += ' ';
      else {
        // Runs kept without the targets' text are whole words: adjacent cells or days get a space between them.
        const target = !inControl && isTarget(kid);
        if (target) targets++;
        rest += ' ';
        walk(kid, inControl || target);
        rest += ' ';
      }
    }
  };
  walk(el, false);
  if (!plain) return '';
  const mostlyTargets = targets >= SEVERAL_TARGETS && targetChars * 2 > text.length;
  return (mostlyTargets ? rest : text).replace(/\s+/g, ' ').trim();
}
