/**
 * The snapshot walk: one node per thing a user sees and uses, in document order through open shadow roots. Refs go
 * only on actionable nodes (refs on every cell were 55% of Playwright MCP's tokens on a 500-row table); a data
 * table's row is one line of cells joined with ` | `, its controls' refs inline.
 */
import {
  clip,
  composedChildren,
  isInvisible,
  isNotRendered,
  isVisuallyHidden,
  looksLikeClosedHost,
  SKIP_TAGS,
  shadowRootOf,
  textStart,
} from './dom';
import type { RefTable } from './refs';
import { inputType, isActionable, isEditableRoot, nameOf, roleOf, statesOf, fieldValue } from './roles';

/** One snapshot line (without its indentation) and what it stands for. */
export interface SnapNode {
  readonly el: Element;
  readonly depth: number;
  line: string;
  /** Lower-cased names, values and text that `find` matches. */
  readonly search: string;
  /** The node's own ref, when it is actionable. */
  readonly ref?: string;
  /** For an iframe line: the frame's resolved URL. */
  readonly frameSrc?: string;
}

/** Everything one walk found. */
export interface WalkResult {
  readonly nodes: SnapNode[];
  /** Closed shadow roots the agent could not read. */
  readonly unreadable: number;
  /** Shadow roots walked, so mutation observers can watch inside them too. */
  readonly shadowRoots: ShadowRoot[];
}

/** Longest text line; an article's paragraphs are for orientation, page_read gives the full text. */
const TEXT_MAX = 100;
/** Longest text run of one table cell. */
const CELL_MAX = 60;

/** Landmarks and containers that always get a line, their content indented under it. */
const LANDMARKS = new Set([
  'main',
  'navigation',
  'banner',
  'contentinfo',
  'complementary',
  'form',
  'dialog',
  'alertdialog',
  'region',
  'search',
]);
/** Containers that get a line only when named. */
const GROUPS = new Set(['group', 'listbox', 'menu', 'menubar', 'tablist', 'radiogroup', 'tree', 'toolbar', 'tabpanel']);
const TABLE_ROLES = new Set(['table', 'grid', 'treegrid']);
const CELL_ROLES = new Set(['cell', 'gridcell', 'columnheader', 'rowheader']);
/** Tags whose text flows into their parent's text line. */
const INLINE_TAGS = new Set(
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
const LAYOUT_TABLE_CONTENT = 'table, h1, h2, h3, h4, h5, h6, form, ul, ol, dl, textarea, iframe, article, nav';

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

/** Roles written without their role word inside a table row (`"Edit" [ref=e2]`): a quoted name with a ref is a control. */
const BARE_IN_ROW = new Set(['button', 'link']);
/** Roles written without their name inside a table row: the row says which one it is. */
const UNNAMED_IN_ROW = new Set(['checkbox', 'radio', 'switch']);

/**
 * The line of an actionable element: `role "name" [states] [ref=eN] /url: ... : value`. `inRow` is the compact
 * token inside a table row: buttons and links without their role word or URL, checkboxes without their name.
 */
export function controlLine(
  el: Element,
  role: string,
  ref: string | undefined,
  active: Element | null,
  inRow = false,
): string {
  const name = inRow && UNNAMED_IN_ROW.has(role) ? '' : nameOf(el, role);
  let line = inRow && name && BARE_IN_ROW.has(role) ? JSON.stringify(name) : role;
  if (name && line === role) line += ` ${JSON.stringify(name)}`;
  for (const state of statesOf(el, role)) line += ` [${state}]`;
  const type = inputType(el);
  if (SHOWN_TYPES.has(type)) line += ` [type=${type}]`;
  const { value, password } = fieldValue(el);
  if (password) line += ' [password]';
  if (el === active) line += ' [active]';
  if (ref) line += ` [ref=${ref}]`;
  if (role === 'link' && !inRow) {
    const url = linkUrl(el);
    if (url) line += ` /url: ${url}`;
  }
  if (value !== undefined) line += `: ${value}`;
  return line;
}

function isInlineText(el: Element): boolean {
  return INLINE_TAGS.has(el.localName) && !(el instanceof HTMLLabelElement && el.control);
}

/** Rows looked at to tell a layout table (a page built of tables) from a table of data. */
const LAYOUT_PROBE_ROWS = 20;

/**
 * A table of data (rows as lines), not one laying out a page (walked like any container). Only the first rows are
 * probed: searching a 2,000-row table whole cost 5 ms a snapshot, and layout tables show their structure early.
 */
export function isDataTable(table: Element): boolean {
  if (!(table instanceof HTMLTableElement) || table.hasAttribute('role')) return true;
  const rows = table.rows;
  for (let r = 0; r < rows.length && r < LAYOUT_PROBE_ROWS; r++) {
    if (rows[r]?.querySelector(LAYOUT_TABLE_CONTENT)) return false;
  }
  return true;
}

/** Walks a tree into snapshot nodes. One instance per walk (it caches the focused element). */
export class Walker {
  readonly nodes: SnapNode[] = [];
  readonly shadowRoots: ShadowRoot[] = [];
  unreadable = 0;
  private readonly active = deepActiveElement();

  constructor(private readonly refs: RefTable) {}

  /** Walks `root` itself and its composed subtree. */
  walk(root: Element): WalkResult {
    this.visit(root, 0, false);
    return { nodes: this.nodes, unreadable: this.unreadable, shadowRoots: this.shadowRoots };
  }

  /** The line of one element as `changed`/`focus` show it (an actionable element with its ref). */
  lineOf(el: Element): string {
    const role = roleOf(el);
    if (isActionable(el, role)) return controlLine(el, role, this.refs.refFor(el), this.active);
    const name = nameOf(el, role);
    return `${role}${name ? ` ${JSON.stringify(name)}` : ''}`;
  }

  private push(el: Element, depth: number, line: string, search: string, extra?: Partial<SnapNode>): void {
    this.nodes.push({ el, depth, line, search: search.toLowerCase(), ...extra });
  }

  private children(parent: Element, depth: number, inText: boolean, inlineCovered = false): void {
    const root = shadowRootOf(parent);
    if (root) this.shadowRoots.push(root);
    const kids = composedChildren(parent);
    for (let i = 0; i < kids.length; i++) {
      const kid = kids[i];
      if (kid instanceof Element) this.visit(kid, depth, inText || (inlineCovered && isInlineText(kid)));
    }
  }

  private visit(el: Element, depth: number, inText: boolean): void {
    const tag = el.localName;
    if (SKIP_TAGS.has(tag) || el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('inert')) return;
    if (isNotRendered(el)) return;
    const rect = el.getBoundingClientRect();
    const role = roleOf(el);
    const actionable = isActionable(el, role);
    // A visually hidden checkbox behind a styled label is still what the label operates.
    const labelled = actionable && ((el as HTMLInputElement).labels?.length ?? 0) > 0;
    if (!labelled && isVisuallyHidden(el, rect)) return;
    if (tag === 'svg' && !actionable) return;
    if (looksLikeClosedHost(el, rect)) this.unreadable++;
    if (tag === 'iframe' || tag === 'frame') {
      if (rect.width > 1 && rect.height > 1 && !isInvisible(el)) this.frameLine(el, depth);
      return;
    }
    if (TABLE_ROLES.has(role) && isDataTable(el)) {
      this.table(el, depth);
      return;
    }
    if (actionable) {
      if (!isInvisible(el)) {
        const ref = this.refs.refFor(el);
        const line = controlLine(el, role, ref, this.active);
        this.push(el, depth, line, `${nameOf(el, role)} ${fieldValue(el).value ?? ''}`, { ref });
      }
      if (tag === 'input' || tag === 'select' || tag === 'textarea' || isEditableRoot(el)) return;
      this.children(el, depth + 1, true);
      return;
    }
    if (role === 'heading') {
      const name = nameOf(el, role);
      if (name && !isInvisible(el)) {
        const states = statesOf(el, role).map((state) => ` [${state}]`);
        this.push(el, depth, `heading ${JSON.stringify(name)}${states.join('')}`, name);
      }
      this.children(el, depth + 1, true);
      return;
    }
    if (
      LANDMARKS.has(role) ||
      (GROUPS.has(role) && (el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') || tag === 'fieldset'))
    ) {
      const name = nameOf(el, role);
      this.push(el, depth, `${role}${name ? ` ${JSON.stringify(name)}` : ''}:`, name);
      const mark = this.nodes.length;
      this.children(el, depth + 1, tag === 'fieldset' ? false : inText);
      if (this.nodes.length === mark && role !== 'dialog' && role !== 'alertdialog') this.nodes.pop();
      return;
    }
    if (role === 'img') {
      const name = nameOf(el, role);
      if (!inText && name && !isInvisible(el)) this.push(el, depth, `img ${JSON.stringify(name)}`, name);
      return;
    }
    if ((el instanceof HTMLLabelElement && el.control) || tag === 'legend') {
      this.children(el, depth, true);
      return;
    }
    if (!inText) {
      const text = ownText(el);
      if (text && !isInvisible(el)) {
        this.push(el, depth, `text: ${clip(text, TEXT_MAX)}`, text);
        this.children(el, depth + 1, false, true);
        return;
      }
    }
    this.children(el, depth, inText);
  }

  private frameLine(el: Element, depth: number): void {
    const frame = el as HTMLIFrameElement;
    const src = frame.src || (frame.hasAttribute('srcdoc') ? 'about:srcdoc' : 'about:blank');
    const name = nameOf(el, 'iframe');
    this.push(el, depth, `iframe${name ? ` ${JSON.stringify(name)}` : ''}`, name, { frameSrc: src });
  }

  private table(table: Element, depth: number): void {
    const name = nameOf(table, 'table');
    this.push(table, depth, `table${name ? ` ${JSON.stringify(name)}` : ''}:`, name);
    const mark = this.nodes.length;
    const rows = table instanceof HTMLTableElement ? table.rows : table.querySelectorAll('[role=row]');
    for (let r = 0; r < rows.length; r++) {
      this.row(rows[r] as Element, depth + 1);
    }
    if (this.nodes.length === mark) this.nodes.pop();
  }

  /** One row of a data table as a line, when it shows anything. */
  row(row: Element, depth: number): void {
    if (row.getAttribute('aria-hidden') === 'true' || isNotRendered(row)) return;
    const cells =
      row instanceof HTMLTableRowElement
        ? Array.from(row.cells)
        : Array.from(row.querySelectorAll('*')).filter((cell) => CELL_ROLES.has(roleOf(cell)));
    const texts: string[] = [];
    const search: string[] = [];
    let content = false;
    for (const cell of cells) {
      const text = this.cellText(cell, search);
      if (text) content = true;
      texts.push(text);
    }
    if (content) this.push(row, depth, `row: ${texts.join(' | ')}`, search.join(' '));
  }

  /** A cell as text runs (each cut at CELL_MAX) with its controls as inline tokens that keep their refs. */
  private cellText(cell: Element, search: string[]): string {
    const parts: string[] = [];
    let run = '';
    const flush = (): void => {
      const text = clip(run, CELL_MAX);
      if (text) {
        parts.push(text);
        search.push(text);
      }
      run = '';
    };
    const walk = (node: Element): void => {
      const kids = composedChildren(node);
      for (let i = 0; i < kids.length; i++) {
        const kid = kids[i] as Node;
        if (kid.nodeType === Node.TEXT_NODE) {
          run += textStart(kid);
          continue;
        }
        if (!(kid instanceof Element)) continue;
        if (SKIP_TAGS.has(kid.localName) || kid.getAttribute('aria-hidden') === 'true' || isNotRendered(kid)) continue;
        const role = roleOf(kid);
        if (isActionable(kid, role)) {
          if (isInvisible(kid)) continue;
          flush();
          parts.push(controlLine(kid, role, this.refs.refFor(kid), this.active, true));
          search.push(nameOf(kid, role), fieldValue(kid).value ?? '');
        } else if (kid.localName === 'img') run += ` ${kid.getAttribute('alt') ?? ''} `;
        else {
          const block = !INLINE_TAGS.has(kid.localName);
          if (block) run += ' ';
          walk(kid);
          if (block) run += ' ';
        }
      }
    };
    walk(cell);
    flush();
    return parts.join(' ');
  }
}

/**
 * The text an element shows itself: its text nodes and those of inline children (links included, for the reading
 * flow), but empty when all of it is the text of controls, which have lines of their own.
 */
function ownText(el: Element): string {
  let text = '';
  let plain = false;
  const walk = (node: Element, inControl: boolean): void => {
    const kids = composedChildren(node);
    for (let i = 0; i < kids.length && text.length < TEXT_MAX * 3; i++) {
      const kid = kids[i] as Node;
      if (kid.nodeType === Node.TEXT_NODE) {
        const value = textStart(kid);
        if (!inControl && !plain && /\S/.test(value)) plain = true;
        text += value;
        continue;
      }
      if (!(kid instanceof Element) || !isInlineText(kid)) continue;
      if (kid.getAttribute('aria-hidden') === 'true' || isNotRendered(kid)) continue;
      if (isVisuallyHidden(kid, kid.getBoundingClientRect())) continue;
      if (kid.localName === 'img') text += ` ${kid.getAttribute('alt') ?? ''} `;
      else if (kid.localName === 'br') text += ' ';
      else walk(kid, inControl || isActionable(kid, roleOf(kid)));
    }
  };
  walk(el, false);
  return plain ? text.replace(/\s+/g, ' ').trim() : '';
}
