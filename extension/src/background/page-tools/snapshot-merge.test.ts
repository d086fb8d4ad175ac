import { describe, expect, it } from 'vitest';
import type { FrameSnapshot } from '../../shared/agent-contract';
import { RefTable } from './ref-table';
import { type FramePart, mergeSnapshots } from './snapshot-merge';

const part = (frameId: number, url: string, lines: string[], over: Partial<FrameSnapshot> = {}): FramePart => ({
  frameId,
  docId: `doc${frameId}`,
  snapshot: { url, title: `T${frameId}`, lines, iframes: [], unreadable: 0, ...over },
});

describe('mergeSnapshots', () => {
  it('heads the text with the top frame address and title, and counts the body lines', () => {
    const merged = mergeSnapshots(
      [part(0, 'https://a.example/', ['- heading "Hi"', '- link "Go" [ref=e1]'])],
      new RefTable(),
    );
    expect(merged).toEqual({
      text: 'Page: https://a.example/\nTitle: T0\n- heading "Hi"\n- link "Go" [ref=e1]',
      lines: 2,
    });
  });

  it('nests frames under the iframe lines that show them, at any depth, whatever order they come in', () => {
    const refs = new RefTable();
    const merged = mergeSnapshots(
      [
        part(9, 'https://c.example/inner', ['- button "Deep" [ref=e1]']),
        part(4, 'https://b.example/frame', ['- iframe "Inner"', '- textbox "B" [ref=e1]'], {
          iframes: [{ line: 0, src: 'https://c.example/inner' }],
        }),
        part(0, 'https://a.example/', ['- main', '  - iframe "Outer" [ref=e1]', '  - button "A" [ref=e2]'], {
          iframes: [{ line: 1, src: 'https://b.example/frame' }],
        }),
      ],
      refs,
    );
    expect(merged.text.split('\n').slice(2)).toEqual([
      '- main',
      '  - iframe "Outer" [ref=e1]',
      '    - iframe "Inner"',
      '      - button "Deep" [ref=e4]',
      '    - textbox "B" [ref=e3]',
      '  - button "A" [ref=e2]',
    ]);
    expect(merged.lines).toBe(6);
    // Refs are given frame by frame as each is read: the outer frame's before the frame inside it.
    expect(refs.resolve('e3')).toEqual({ frameId: 4, docId: 'doc4', local: 'e1' });
    expect(refs.resolve('e4')).toEqual({ frameId: 9, docId: 'doc9', local: 'e1' });
  });

  it('gives two iframes of the same address one frame each', () => {
    const merged = mergeSnapshots(
      [
        part(0, 'https://a.example/', ['- iframe "Ad 1"', '- iframe "Ad 2"'], {
          iframes: [
            { line: 0, src: 'https://ads.example/slot' },
            { line: 1, src: 'https://ads.example/slot' },
          ],
        }),
        part(1, 'https://ads.example/slot', ['- link "One" [ref=e1]']),
        part(2, 'https://ads.example/slot', ['- link "Two" [ref=e1]']),
      ],
      new RefTable(),
    );
    expect(merged.text.split('\n').slice(2)).toEqual([
      '- iframe "Ad 1"',
      '  - link "One" [ref=e1]',
      '- iframe "Ad 2"',
      '  - link "Two" [ref=e2]',
    ]);
  });

  it('lists a frame no iframe line claims at the end under its own address instead of dropping it', () => {
    const merged = mergeSnapshots(
      [
        part(0, 'https://a.example/', ['- iframe "Login"'], { iframes: [{ line: 0, src: 'https://login.example/' }] }),
        // The frame redirected after its parent was read: its address no longer matches the iframe's.
        part(3, 'https://login.example/step2', ['- textbox "Code" [ref=e1]']),
      ],
      new RefTable(),
    );
    expect(merged.text.split('\n').slice(2)).toEqual([
      '- iframe "Login"',
      '- frame "https://login.example/step2"',
      '  - textbox "Code" [ref=e1]',
    ]);
  });

  it('ends a cut snapshot with a note per cut frame naming the tab ref to continue from', () => {
    const refs = new RefTable();
    const merged = mergeSnapshots(
      [
        part(0, 'https://a.example/', ['- iframe [ref=e1]', '- row: 1'], {
          iframes: [{ line: 0, src: 'https://b.example/' }],
          cut: { remaining: 480, from: 'e77' },
        }),
        part(2, 'https://b.example/', ['- button "x" [ref=e1]'], { cut: { remaining: 3, from: 'e2' } }),
      ],
      refs,
    );
    const notes = merged.text.split('\n').filter((l) => l.startsWith('[Cut'));
    expect(notes).toEqual([
      '[Cut at the size limit: 3 more elements of the frame https://b.example/. Call page_snapshot {"from":"e3"} for the rest, or page_find {"text":"..."} to search the page.]',
      '[Cut at the size limit: 480 more elements. Call page_snapshot {"from":"e4"} for the rest, or page_find {"text":"..."} to search the page.]',
    ]);
    expect(refs.resolve('e3')).toEqual({ frameId: 2, docId: 'doc2', local: 'e2' });
    expect(refs.resolve('e4')).toEqual({ frameId: 0, docId: 'doc0', local: 'e77' });
    // Notes come after the body and are not counted as its lines.
    expect(merged.lines).toBe(3);
  });

  it('says how many parts could not be read, summed over the frames', () => {
    const merged = mergeSnapshots(
      [
        part(0, 'https://a.example/', ['- main'], { unreadable: 2 }),
        part(1, 'https://b.example/', [], { unreadable: 1 }),
      ],
      new RefTable(),
    );
    expect(merged.text.split('\n').at(-1)).toBe(
      '[3 part(s) could not be read: closed shadow roots or frames the extension cannot enter.]',
    );
  });

  it('says so when no frame answered', () => {
    expect(mergeSnapshots([], new RefTable())).toEqual({
      text: 'The page has no document the extension can read.',
      lines: 0,
    });
  });
});
