import { describe, expect, it } from 'vitest';
import { pathPoints, visibleCentre } from './geometry';

const rect = (left: number, top: number, right: number, bottom: number) => ({ left, top, right, bottom });

describe('where to point', () => {
  it('takes the centre of the first rect that shows, clipped to the viewport', () => {
    expect(visibleCentre([rect(10, 10, 30, 20)], 800, 600)).toEqual({ x: 20, y: 15 });
    // A wrapped link: its first line is off the top, the second shows.
    expect(visibleCentre([rect(0, -40, 100, -20), rect(0, 0, 50, 20)], 800, 600)).toEqual({ x: 25, y: 10 });
    // Half below the fold: the centre of the part in view.
    expect(visibleCentre([rect(0, 580, 100, 620)], 800, 600)).toEqual({ x: 50, y: 590 });
    expect(visibleCentre([rect(0, 0, 0, 20)], 800, 600)).toBeUndefined();
    expect(visibleCentre([rect(900, 0, 950, 20)], 800, 600)).toBeUndefined();
    expect(visibleCentre([], 800, 600)).toBeUndefined();
  });
});

describe('the drag path', () => {
  it('steps evenly from the start (excluded) to the end (included)', () => {
    expect(pathPoints({ x: 0, y: 0 }, { x: 100, y: 50 }, 4)).toEqual([
      { x: 25, y: 12.5 },
      { x: 50, y: 25 },
      { x: 75, y: 37.5 },
      { x: 100, y: 50 },
    ]);
    expect(pathPoints({ x: 5, y: 5 }, { x: 5, y: 5 }, 0)).toEqual([{ x: 5, y: 5 }]);
  });

  it('moves in steps small enough that a library sees a drag start past its threshold before the end', () => {
    const points = pathPoints({ x: 0, y: 0 }, { x: 0, y: 300 }, 10);
    expect(points).toHaveLength(10);
    expect(points[0]?.y).toBe(30);
    expect(points.every((p, i) => i === 0 || p.y > (points[i - 1]?.y ?? 0))).toBe(true);
  });
});
