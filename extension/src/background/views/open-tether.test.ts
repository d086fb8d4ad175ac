import { describe, expect, it } from 'vitest';
import type { WorkerToView } from '../../shared/messages';
import { quoteSelection } from './open-tether';
import { fakeWorker } from '../test-helpers';
import type { View } from './views';

function panel(tabId: number, kind: View['kind'] = 'sidepanel'): View & { got: WorkerToView[] } {
  const got: WorkerToView[] = [];
  return { id: tabId * 10 + (kind === 'popup' ? 1 : 0), kind, tabId, got, send: (m) => got.push(m) };
}

const drafts = (view: { got: WorkerToView[] }): string[] =>
  view.got.flatMap((m) => (m.type === 'draft' ? [m.text] : []));

describe('quoteSelection', () => {
  it('quotes each line of the selection and leaves an empty line for the question', () => {
    expect(quoteSelection('  Bergen is rainy.\r\n\r\nOslo is not.  ')).toBe(
      '> Bergen is rainy.\n>\n> Oslo is not.\n\n',
    );
  });

  it('gives nothing for a selection of white space', () => {
    expect(quoteSelection(' \n\t ')).toBe('');
  });

  it('cuts a very long selection', () => {
    const quoted = quoteSelection('x'.repeat(10_000));
    expect(quoted.length).toBeLessThan(4100);
    expect(quoted).toMatch(/x…\n\n$/);
  });
});

describe('TetherWorker.offerDraft', () => {
  it("gives the draft to the tab's open side panel at once, not to its popup or another tab's panel", async () => {
    const { worker } = await fakeWorker();
    const [mine, popup, other] = [panel(1), panel(1, 'popup'), panel(2)];
    for (const v of [mine, popup, other]) worker.views.add(v);
    worker.offerDraft(1, '> quote\n\n');
    expect(drafts(mine)).toEqual(['> quote\n\n']);
    expect(drafts(popup)).toEqual([]);
    expect(drafts(other)).toEqual([]);
  });

  it('keeps the draft for a panel that opens later and gives it once', async () => {
    const { worker } = await fakeWorker();
    worker.offerDraft(3, '> later\n\n');
    const first = panel(3);
    worker.views.add(first);
    await worker.welcome(first);
    const second = panel(3);
    worker.views.add(second);
    await worker.welcome(second);
    expect(drafts(first)).toEqual(['> later\n\n']);
    expect(drafts(second)).toEqual([]);
  });
});
