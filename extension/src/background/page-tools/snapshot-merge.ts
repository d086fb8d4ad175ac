/**
 * One page snapshot from the snapshots of its frames: each frame's agent snapshots its own document, and the lines of a
 * frame go under the line of the iframe element that shows it, matched by address. Refs are rewritten to the tab's
 * model-facing refs (ref-table.ts) on the way.
 */
import type { FrameSnapshot } from '../../shared/agent-contract';
import type { RefTable } from './ref-table';

/** One frame's snapshot as the worker got it. */
export interface FramePart {
  readonly frameId: number;
  readonly docId: string;
  readonly snapshot: FrameSnapshot;
}

/** The merged snapshot: its text, and what the model needs to know about what is missing. */
export interface MergedSnapshot {
  readonly text: string;
  readonly lines: number;
}

function indentOf(line: string): string {
  return /^\s*/.exec(line)?.[0] ?? '';
}

/**
 * Merges frame snapshots (the top frame, frameId 0, first) into one text. Frames no iframe line claims (a frame whose
 * address changed since its parent was read) are listed at the end under their own address rather than dropped.
 */
export function mergeSnapshots(parts: readonly FramePart[], refs: RefTable): MergedSnapshot {
  const top = parts.find((p) => p.frameId === 0) ?? parts[0];
  if (!top) return { text: 'The page has no document the extension can read.', lines: 0 };
  const used = new Set<number>([top.frameId]);
  const notes: string[] = [];
  let unreadable = 0;

  const render = (part: FramePart, indent: string): string[] => {
    const s = part.snapshot;
    unreadable += s.unreadable;
    const lines = refs.rewrite(s.lines, part.frameId, part.docId);
    const frameAt = new Map(s.iframes.map((f) => [f.line, f.src]));
    const out: string[] = [];
    lines.forEach((line, i) => {
      out.push(indent + line);
      const src = frameAt.get(i);
      if (src === undefined) return;
      const child = parts.find((p) => !used.has(p.frameId) && p.snapshot.url === src);
      if (!child) return;
      used.add(child.frameId);
      out.push(...render(child, `${indent}${indentOf(line)}  `));
    });
    if (s.cut) {
      const from = refs.refFor(part.frameId, part.docId, s.cut.from);
      const where = part.frameId === 0 ? '' : ` of the frame ${s.url}`;
      notes.push(
        `[Cut at the size limit: ${s.cut.remaining} more elements${where}. Call page_snapshot {"from":"${from}"} for the rest, or page_find {"text":"..."} to search the page.]`,
      );
    }
    return out;
  };

  const body = render(top, '');
  for (const part of parts) {
    if (used.has(part.frameId)) continue;
    used.add(part.frameId);
    body.push(`- frame ${JSON.stringify(part.snapshot.url)}`, ...render(part, '  '));
  }
  if (unreadable > 0)
    notes.push(`[${unreadable} part(s) could not be read: closed shadow roots or frames the extension cannot enter.]`);
  const head = `Page: ${top.snapshot.url}\nTitle: ${top.snapshot.title}`;
  return { text: [head, ...body, ...notes].join('\n'), lines: body.length };
}
