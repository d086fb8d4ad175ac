/** Viewport geometry for pointing and dragging: pure, so it is tested without a page. */

/** A point in the frame's viewport, CSS px. */
export interface ViewportPoint {
  readonly x: number;
  readonly y: number;
}

/**
 * The centre of the first of `rects` that shows in a `width` x `height` viewport, clipped to it; undefined when none
 * does. Pure, so the clipping rule is tested without a page.
 */
export function visibleCentre(
  rects: ArrayLike<{ left: number; top: number; right: number; bottom: number }>,
  width: number,
  height: number,
): ViewportPoint | undefined {
  for (let i = 0; i < rects.length; i++) {
    const r = rects[i] as { left: number; top: number; right: number; bottom: number };
    const left = Math.max(0, r.left);
    const top = Math.max(0, r.top);
    const right = Math.min(width, r.right);
    const bottom = Math.min(height, r.bottom);
    if (right - left >= 1 && bottom - top >= 1) return { x: (left + right) / 2, y: (top + bottom) / 2 };
  }
  return undefined;
}

/** `steps` points from `a` to `b`, excluding `a` and including `b`, evenly spaced. Pure, for tests. */
export function pathPoints(a: ViewportPoint, b: ViewportPoint, steps: number): ViewportPoint[] {
  const n = Math.max(1, Math.floor(steps));
  return Array.from({ length: n }, (_, i) => ({
    x: a.x + ((b.x - a.x) * (i + 1)) / n,
    y: a.y + ((b.y - a.y) * (i + 1)) / n,
  }));
}
