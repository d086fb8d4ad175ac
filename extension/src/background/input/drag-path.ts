/**
 * The pointer path of a drag: a first small step off the start point (libraries such as SortableJS and dnd-kit wait
 * for a few pixels of movement before a drag begins), then evenly spaced moves to the target, and a last move onto it,
 * so a sortable list sees the pointer cross each item between and a drop zone sees it arrive.
 */
import { pathPoints } from '../../content/geometry';
import type { Point } from '../../shared/agent-contract';

/** Pixels of the first move: past the 3-10 px thresholds pointer-driven drag libraries use before starting. */
export const DRAG_START_STEP_PX = 12;
/** Most pixels between two moves along the path. */
export const DRAG_STEP_PX = 20;
/** Fewest and most moves along the path (after the first step). */
const MIN_STEPS = 5;
const MAX_STEPS = 40;

/** The points the pointer moves through from `from` (excluded: it is pressed there) to `to` (included, last). */
export function dragPath(from: Point, to: Point): Point[] {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const distance = Math.hypot(dx, dy);
  const out: Point[] = [];
  // The first step goes towards the target, or to the right when the target is the start point itself.
  const ux = distance > 0 ? dx / distance : 1;
  const uy = distance > 0 ? dy / distance : 0;
  const first = { x: from.x + ux * DRAG_START_STEP_PX, y: from.y + uy * DRAG_START_STEP_PX };
  out.push(first);
  const rest = Math.hypot(to.x - first.x, to.y - first.y);
  const steps = Math.min(MAX_STEPS, Math.max(MIN_STEPS, Math.ceil(rest / DRAG_STEP_PX)));
  // The page agent's synthetic drag steps along the same evenly spaced path (content/geometry.ts).
  out.push(...pathPoints(first, to, steps));
  return out.map(round);
}

function round(p: Point): Point {
  return { x: Math.round(p.x * 100) / 100, y: Math.round(p.y * 100) / 100 };
}
