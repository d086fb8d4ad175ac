import { describe, expect, it } from 'vitest';
import { RefTable, staleRefMessage } from './ref-table';

describe('RefTable', () => {
  it('gives each element of each frame and document one ref of the tab, the same every time it is seen', () => {
    const t = new RefTable();
    expect(t.refFor(0, 'd1', 'e1')).toBe('e1');
    expect(t.refFor(0, 'd1', 'e2')).toBe('e2');
    // Another frame numbers its own elements from e1 too: they get refs of their own.
    expect(t.refFor(7, 'f1', 'e1')).toBe('e3');
    expect(t.refFor(0, 'd1', 'e1')).toBe('e1');
    expect(t.refFor(7, 'f1', 'e1')).toBe('e3');
    expect(t.resolve('e3')).toEqual({ frameId: 7, docId: 'f1', local: 'e1' });
    expect(t.resolve('e4')).toBeUndefined();
    expect(t.resolve('f7e1')).toBeUndefined();
  });

  it("rewrites every ref mark of a frame's lines and leaves the rest of each line alone", () => {
    const t = new RefTable();
    t.refFor(3, 'x', 'e9');
    expect(
      t.rewrite(
        ['- heading "Cart"', '- row: Tea | "Edit" [ref=e1] | "Remove" [ref=e2]', '- button "Pay" [ref=e1]'],
        0,
        'd',
      ),
    ).toEqual(['- heading "Cart"', '- row: Tea | "Edit" [ref=e2] | "Remove" [ref=e3]', '- button "Pay" [ref=e2]']);
    // Marks of another shape are not refs.
    expect(t.rewrite(['- link [ref=x1] [ref=] [ref=E1]'], 0, 'd')).toEqual(['- link [ref=x1] [ref=] [ref=E1]']);
  });

  it('never gives a ref out again once the document it pointed into is gone', () => {
    const t = new RefTable();
    const old = [t.refFor(0, 'd1', 'e1'), t.refFor(0, 'd1', 'e2')];
    const child = t.refFor(5, 'c1', 'e1');
    t.forgetDocument(0, 'd2');
    for (const ref of old) expect(t.resolve(ref)).toBeUndefined();
    // Only that frame's other documents go.
    expect(t.resolve(child)).toEqual({ frameId: 5, docId: 'c1', local: 'e1' });
    // The new document's e1 is a new ref, so a stale ref can never reach an element of the new page.
    const fresh = t.refFor(0, 'd2', 'e1');
    expect(old).not.toContain(fresh);
    expect(fresh).toBe('e4');
    t.forgetDocument(0, 'd2');
    expect(t.resolve(fresh)).toEqual({ frameId: 0, docId: 'd2', local: 'e1' });
  });

  it('forgets the oldest refs past its cap, and still never reuses one', () => {
    const t = new RefTable();
    const n = 50_001;
    for (let i = 1; i <= n; i++) t.refFor(0, 'd', `e${i}`);
    // Over 50,000 the oldest tenth (and the one over) go at once, so the cut is not paid on every new ref.
    expect(t.resolve('e1')).toBeUndefined();
    expect(t.resolve('e5001')).toBeUndefined();
    expect(t.resolve('e5002')).toEqual({ frameId: 0, docId: 'd', local: 'e5002' });
    expect(t.resolve(`e${n}`)).toBeDefined();
    expect(t.refFor(0, 'd', 'e1')).toBe(`e${n + 1}`);
  });

  it('says a stale ref is gone and what to do about it', () => {
    expect(staleRefMessage('e12')).toBe(
      'Ref e12 is not on the page any more (the page changed or navigated since the snapshot that showed it). Call page_snapshot again and use a ref from the new snapshot.',
    );
  });
});
