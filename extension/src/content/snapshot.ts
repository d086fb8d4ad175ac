/**
 * The snapshot walk: one node per thing a user sees and uses, in document order through open shadow roots. Refs go
 * only on what a user acts on (refs on every cell were 55% of Playwright MCP's tokens on a 500-row table): controls,
 * and clickables without a control role (clickable.ts: a pointer cursor, a tabindex, an inline onclick, a grid
 * cell); a data table's row is one line of cells joined with ` | `, its controls' refs inline.
 */
import { type Clickable, clickableKind, hasClickHandler, hasPointer, isCellTarget, isFocusable } from './clickable';
import {
  clip,
  composedChildren,
  composedParent,
  isInvisible,
  isNotRendered,
  isOffPage,
  isVisuallyHidden,
  looksLikeClosedHost,
  SKIP_TAGS,
  shadowRootOf,
  textStart,
} from './dom';
import type { RefTable } from './refs';
import { fieldValue, isActionable, isEditableRoot, isTypingTarget, nameOf, roleOf, statesOf } from './roles';
import {
  classHint,
  clickableName,
  clickableRole,
  controlLine,
  deepActiveElement,
  INLINE_TAGS,
  isInlineText,
  ownText,
  TEXT_MAX,
} from './snapshot-lines';

export { controlLine, deepActiveElement, linkUrl } from './snapshot-lines';

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
const LAYOUT_TABLE_CONTENT = 'table, h1, h2, h3, h4, h5, h6, form, ul, ol, dl, textarea, iframe, article, nav';

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

/** Walks a tree into snapshot nodes. One instance per walk (it caches the focused element and computed cursors). */
export class Walker {
  readonly nodes: SnapNode[] = [];
  readonly shadowRoots: ShadowRoot[] = [];
  unreadable = 0;
  private readonly active = deepActiveElement();
  private readonly pointers = new Map<Element, boolean>();

  constructor(private readonly refs: RefTable) {}

  /** Walks `root` itself and its composed subtree. */
  walk(root: Element): WalkResult {
    this.visit(root, 0, false, this.parentPointer(root));
    return { nodes: this.nodes, unreadable: this.unreadable, shadowRoots: this.shadowRoots };
  }

  /** The line of one element as `changed`/`focus` show it (a control or clickable with its ref). */
  lineOf(el: Element): string {
    const role = roleOf(el);
    if (isActionable(el, role)) return controlLine(el, role, this.refs.refFor(el), this.active);
    if (clickableKind(el, role, this.pointer(el), this.parentPointer(el))) {
      return controlLine(el, clickableRole(role), this.refs.refFor(el), this.active, false, clickableName(el, role));
    }
    const name = nameOf(el, role);
    return `${role}${name ? ` ${JSON.stringify(name)}` : ''}`;
  }

  /** The computed cursor is a pointer (cached: a row's cells and inline runs ask about the same parents). */
  private pointer(el: Element): boolean {
    let known = this.pointers.get(el);
    if (known === undefined) {
      known = hasPointer(el);
      this.pointers.set(el, known);
    }
    return known;
  }

  private parentPointer(el: Element): boolean {
    const parent = composedParent(el);
    return parent instanceof Element && this.pointer(parent);
  }

  /** How the element takes a user's action without a control role (clickable.ts), with its cursor cached. */
  private clickable(el: Element, role: string, parentPointer: boolean): Clickable | undefined {
    return clickableKind(el, role, this.pointer(el), parentPointer);
  }

  private push(el: Element, depth: number, line: string, search: string, extra?: Partial<SnapNode>): void {
    this.nodes.push({ el, depth, line, search: search.toLowerCase(), ...extra });
  }

  private children(parent: Element, depth: number, inText: boolean, inlineCovered = false): void {
    const root = shadowRootOf(parent);
    if (root) this.shadowRoots.push(root);
    const kids = composedChildren(parent);
    const pointer = this.pointer(parent);
    for (let i = 0; i < kids.length; i++) {
      const kid = kids[i];
      if (kid instanceof Element) this.visit(kid, depth, inText || (inlineCovered && isInlineText(kid)), pointer);
    }
  }

  private visit(el: Element, depth: number, inText: boolean, parentPointer: boolean): void {
    const tag = el.localName;
    if (SKIP_TAGS.has(tag) || el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('inert')) return;
    if (isNotRendered(el)) return;
    const rect = el.getBoundingClientRect();
    const role = roleOf(el);
    const actionable = isActionable(el, role);
    if (isVisuallyHidden(el, rect) && !this.keptHidden(el, actionable, rect)) return;
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
    const kind = rect.width > 0 || rect.height > 0 ? this.clickable(el, role, parentPointer) : undefined;
    if (kind && !isInvisible(el)) {
      this.clickableLine(el, role, kind, depth);
      this.children(el, depth + 1, kind === 'leaf' || inText);
      return;
    }
    if (tag === 'svg') return;
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
      const text = ownText(el, (kid) => this.isTarget(kid));
      if (text && !isInvisible(el)) {
        this.push(el, depth, `text: ${clip(text, TEXT_MAX)}`, text);
        this.children(el, depth + 1, false, true);
        return;
      }
    }
    this.children(el, depth, inText);
  }

  /**
   * A visually hidden element the snapshot still shows: a checkbox drawn by its label, and a field a user types into
   * through a 1x1 px box (code editors), unless it is pushed off the page (a honeypot, a skip link).
   */
  private keptHidden(el: Element, actionable: boolean, rect: DOMRect): boolean {
    if (!actionable) return false;
    if (((el as HTMLInputElement).labels?.length ?? 0) > 0) return true;
    return isTypingTarget(el) && !isOffPage(rect);
  }

  /** Whether an inline element has a line of its own (a control or a clickable), so its text is not plain text. */
  private isTarget(el: Element): boolean {
    const role = roleOf(el);
    return isActionable(el, role) || this.clickable(el, role, this.parentPointer(el)) !== undefined;
  }

  /** A clickable's line: a leaf with its name like a control, a container (a card) as `role [ref]:` over its content. */
  private clickableLine(el: Element, role: string, kind: Clickable, depth: number): void {
    const ref = this.refs.refFor(el);
    const shownRole = clickableRole(role);
    if (kind === 'leaf') {
      const name = clickableName(el, role);
      const line = controlLine(el, shownRole, ref, this.active, false, name);
      this.push(el, depth, name ? line : line.replace(' [ref=', `${classHint(el)} [ref=`), name, { ref });
      return;
    }
    const label = el.getAttribute('aria-label')?.trim() || el.getAttribute('title')?.trim();
    const named = label ? ` ${JSON.stringify(clip(label, TEXT_MAX))}` : '';
    this.push(el, depth, `${shownRole}${named} [ref=${ref}]:`, label ?? '', { ref });
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
    const grid = roleOf(table) !== 'table';
    for (let r = 0; r < rows.length; r++) {
      this.row(rows[r] as Element, depth + 1, grid);
    }
    if (this.nodes.length === mark) this.nodes.pop();
  }

  /**
   * One row of a data table as a line, when it shows anything. A row or cell that takes clicks of its own (a
   * clickable row, a cell of a grid, a calendar day) carries its ref: `row [ref=e4]: ...`, `| 28 [ref=e9] |`.
   */
  row(row: Element, depth: number, grid = row.closest('[role=grid], [role=treegrid]') !== null): void {
    if (row.getAttribute('aria-hidden') === 'true' || isNotRendered(row)) return;
    const cells =
      row instanceof HTMLTableRowElement
        ? Array.from(row.cells)
        : Array.from(row.querySelectorAll('*')).filter((cell) => CELL_ROLES.has(roleOf(cell)));
    const rowPointer = this.pointer(row);
    const texts: string[] = [];
    const search: string[] = [];
    let content = false;
    for (const cell of cells) {
      let text = this.cellText(cell, search);
      const header = cell.localName === 'th' || roleOf(cell) === 'columnheader' || roleOf(cell) === 'rowheader';
      if (isCellTarget(cell, grid && !header, this.pointer(cell), rowPointer) && !isInvisible(cell)) {
        text = `${text ? `${text} ` : ''}[ref=${this.refs.refFor(cell)}]`;
      }
      if (text) content = true;
      texts.push(text);
    }
    if (!content) return;
    const own = hasClickHandler(row) || isFocusable(row) || (rowPointer && !this.parentPointer(row));
    const head = own ? `row [ref=${this.refs.refFor(row)}]:` : 'row:';
    this.push(row, depth, `${head} ${texts.join(' | ')}`, search.join(' '));
  }

  /** A cell as text runs (each cut at CELL_MAX) with its controls and clickables as inline tokens that keep their refs. */
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
    const token = (kid: Element, role: string, name?: string): void => {
      if (isInvisible(kid)) return;
      flush();
      const ref = this.refs.refFor(kid);
      parts.push(controlLine(kid, role, ref, this.active, true, name));
      search.push(name ?? nameOf(kid, role), fieldValue(kid).value ?? '');
    };
    const walk = (node: Element): void => {
      const kids = composedChildren(node);
      const pointer = this.pointer(node);
      for (let i = 0; i < kids.length; i++) {
        const kid = kids[i] as Node;
        if (kid.nodeType === Node.TEXT_NODE) {
          run += textStart(kid);
          continue;
        }
        if (!(kid instanceof Element)) continue;
        if (SKIP_TAGS.has(kid.localName) || kid.getAttribute('aria-hidden') === 'true' || isNotRendered(kid)) continue;
        const role = roleOf(kid);
        if (isActionable(kid, role)) token(kid, role);
        else if (this.clickable(kid, role, pointer) === 'leaf')
          token(kid, clickableRole(role), clickableName(kid, role));
        else if (kid.localName === 'img') run += ` ${kid.getAttribute('alt') ?? ''} `;
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
