/**
 * The reading calls built on the walk: a bounded frame snapshot that can continue `from` a ref, `find`, and the
 * lines of the region an action changed.
 */
import type { FindResult, FrameSnapshot, ReadResult, StaleRef } from '../shared/agent-contract';
import { clip, composedChildren, composedContains, composedParent, isNotRendered, SKIP_TAGS } from './dom';
import { type RefTable, staleRef } from './refs';
import { nameOf, roleOf, wholeValue } from './roles';
import { isDataTable, type SnapNode, Walker, type WalkResult } from './snapshot';
import { TEXT_MAX } from './snapshot-lines';

/** Where the walk of a whole frame starts (a frameset document has no body). */
export function frameRoot(): Element {
  return document.body ?? document.documentElement;
}

/** Remembers the shadow roots walks found, weakly, for observers that must watch inside them. */
export class ShadowRootSet {
  private readonly seen = new WeakSet<ShadowRoot>();
  private readonly roots: WeakRef<ShadowRoot>[] = [];

  /** Adds the roots of a walk. */
  addAll(roots: readonly ShadowRoot[]): void {
    for (const root of roots) {
      if (this.seen.has(root)) continue;
      this.seen.add(root);
      this.roots.push(new WeakRef(root));
    }
  }

  /** The roots still alive and connected. */
  live(): ShadowRoot[] {
    const out: ShadowRoot[] = [];
    for (const weak of this.roots) {
      const root = weak.deref();
      if (root?.host.isConnected) out.push(root);
    }
    return out;
  }
}

function indent(node: SnapNode, base = 0): string {
  return `${'  '.repeat(Math.max(0, node.depth - base))}- ${node.line}`;
}

/** Index of the node for `el`, or of the first node after it in document order when it has no line itself. */
function startIndex(nodes: readonly SnapNode[], el: Element): number {
  const exact = nodes.findIndex((node) => node.el === el);
  if (exact >= 0) return exact;
  const after = nodes.findIndex(
    (node) =>
      (el.compareDocumentPosition(node.el) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0 && !composedContains(node.el, el),
  );
  return after >= 0 ? after : nodes.length;
}

/** The frame's snapshot: lines up to `maxChars` (at a node boundary), continuing at `from` when given. */
export function snapshotFrame(
  refs: RefTable,
  shadows: ShadowRootSet,
  from: string | undefined,
  maxChars: number,
): FrameSnapshot | StaleRef {
  let fromEl: Element | undefined;
  if (from !== undefined) {
    fromEl = refs.resolve(from);
    if (!fromEl) return staleRef(from);
  }
  const walk = new Walker(refs).walk(frameRoot());
  shadows.addAll(walk.shadowRoots);
  const { nodes } = walk;
  const lines: string[] = [];
  const iframes: FrameSnapshot['iframes'] = [];
  let size = 0;
  let i = fromEl ? startIndex(nodes, fromEl) : 0;
  let cut: FrameSnapshot['cut'];
  for (; i < nodes.length; i++) {
    const node = nodes[i] as SnapNode;
    const line = indent(node);
    if (size + line.length + 1 > maxChars && lines.length > 0) {
      cut = { remaining: nodes.length - i, from: refs.refFor(node.el) };
      break;
    }
    size += line.length + 1;
    if (node.frameSrc !== undefined)
      iframes.push({ line: lines.length, src: node.frameSrc, ref: refs.refFor(node.el) });
    lines.push(line);
  }
  return {
    url: location.href,
    title: document.title,
    lines,
    iframes,
    ...(cut ? { cut } : {}),
    unreadable: walk.unreadable,
  };
}

/** Case-insensitive matches on names, values and text; each a line with a ref (the node's own, or one given to it). */
export function findInFrame(refs: RefTable, shadows: ShadowRootSet, text: string, max: number): FindResult {
  const query = text.replace(/\s+/g, ' ').trim().toLowerCase();
  const walk = new Walker(refs).walk(frameRoot());
  shadows.addAll(walk.shadowRoots);
  const matches: string[] = [];
  let total = 0;
  if (!query) return { matches, total };
  for (const node of walk.nodes) {
    if (!node.search.replace(/\s+/g, ' ').includes(query)) continue;
    total++;
    if (matches.length >= max) continue;
    matches.push(`- ${matchLine(refs, node, query)}`);
  }
  return { matches, total };
}

/**
 * A match as a line with a ref. A control's line has its own; a text line's match gets the ref of the smallest
 * element holding the text (a word-link span inside a paragraph, a cell of a row), so a click lands on that text,
 * not on the middle of its paragraph; the line it sits in follows as context.
 */
function matchLine(refs: RefTable, node: SnapNode, query: string): string {
  // A row already carries its controls' refs.
  if (node.ref || node.line.includes('[ref=')) return node.line;
  const inner = innermostWith(node.el, query);
  if (inner !== node.el) {
    const text = clip(inner.textContent ?? '', TEXT_MAX);
    return `text ${JSON.stringify(text)} [ref=${refs.refFor(inner)}] in: ${clip(node.line, CONTEXT_MAX)}`;
  }
  // The line's own element gets a ref, so `from` can start there.
  return `${node.line} [ref=${refs.refFor(node.el)}]`;
}

/** Characters of the enclosing line shown after a text match's own ref. */
const CONTEXT_MAX = 80;

/** The deepest rendered element under `root` whose text holds `query` (lower-cased, spaces collapsed). */
function innermostWith(root: Element, query: string): Element {
  let at = root;
  for (let depth = 0; depth < 64; depth++) {
    let next: Element | undefined;
    const kids = composedChildren(at);
    for (let i = 0; i < kids.length && !next; i++) {
      const kid = kids[i];
      if (!(kid instanceof Element) || SKIP_TAGS.has(kid.localName) || isNotRendered(kid)) continue;
      if ((kid.textContent ?? '').replace(/\s+/g, ' ').toLowerCase().includes(query)) next = kid;
    }
    if (!next) return at;
    at = next;
  }
  return at;
}

/**
 * One element read whole (`page_read` with a ref): a field's full value, which the snapshot cuts at 100 characters,
 * or another element's rendered text; the element named as its snapshot line would name it, without ref and value.
 */
export function readElement(refs: RefTable, ref: string, maxChars: number): ReadResult {
  const el = refs.resolve(ref);
  if (!el) return staleRef(ref);
  const role = roleOf(el);
  const name = nameOf(el, role);
  const element = `${role}${name ? ` ${JSON.stringify(name)}` : ''}`;
  const whole = wholeValue(el);
  if (whole === undefined) return { stale: false, error: `${element} is a password field: its value is never read.` };
  return { stale: false, element, text: whole.slice(0, Math.max(0, maxChars)), total: whole.length };
}

/** Bounds of what an action reports as changed. */
export const CHANGED_MAX_LINES = 60;
export const CHANGED_MAX_CHARS = 4000;
/** Pages with fewer elements than this are reported whole after an action instead of by region. */
const SMALL_PAGE_ELEMENTS = 400;

/** The nearest element containing every node, crossing shadow boundaries; `undefined` when none is connected. */
export function commonAncestor(nodes: Iterable<Node>): Element | undefined {
  let common: Node | undefined;
  for (const node of nodes) {
    if (!node.isConnected) continue;
    if (!common) {
      common = node;
      continue;
    }
    while (common && !composedContains(common, node)) common = composedParent(common) ?? undefined;
    if (!common) return undefined;
  }
  while (common && !(common instanceof Element)) common = composedParent(common) ?? undefined;
  return common;
}

function bounded(refs: RefTable, walk: WalkResult, base: number): string[] {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; i < walk.nodes.length; i++) {
    const node = walk.nodes[i] as SnapNode;
    const line = indent(node, base);
    if (lines.length >= CHANGED_MAX_LINES || size + line.length > CHANGED_MAX_CHARS) {
      const from = refs.refFor(node.el);
      lines.push(`- … ${walk.nodes.length - i} more lines: page_snapshot with from "${from}" shows them`);
      break;
    }
    size += line.length + 1;
    lines.push(line);
  }
  return lines;
}

/**
 * What an action changed, as snapshot lines: the whole frame when the page is small, else the nearest region
 * around every mutated node; `target`'s own line when nothing mutated (a typed value, a checked box).
 */
export function changedLines(refs: RefTable, shadows: ShadowRootSet, mutated: Set<Node>, target?: Element): string[] {
  if (mutated.size === 0) {
    return target?.isConnected ? [`- ${new Walker(refs).lineOf(target)}`] : [];
  }
  const small = document.getElementsByTagName('*').length < SMALL_PAGE_ELEMENTS;
  let region = small ? frameRoot() : (commonAncestor(mutated) ?? frameRoot());
  const walker = new Walker(refs);
  // Inside a data table the region is the one row that changed, else the table: cells alone read as loose text.
  const table = region.closest('table, [role=table], [role=grid], [role=treegrid]');
  const row = region.closest('tr, [role=row]');
  if (table && isDataTable(table) && row && table.contains(row)) {
    walker.row(row, 0);
    return walker.nodes.map((node) => `- ${node.line}`);
  }
  if (table && isDataTable(table)) region = table;
  const walk = walker.walk(region);
  shadows.addAll(walk.shadowRoots);
  // What changed shows nothing (a hidden part, a style): the target's own line still says where things stand.
  if (walk.nodes.length === 0) return target?.isConnected ? [`- ${walker.lineOf(target)}`] : [];
  return bounded(refs, walk, walk.nodes[0]?.depth ?? 0);
}
