import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Item, Turn } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import { testItem, testThread } from '../testing/journal-fixtures';
import { useTempDirs } from '../testing/temp-dirs';
import { CODEX_STOPPED, CodexJournal, type ShownTurn } from './codex-journal';

const tempDir = useTempDirs('tether-codex-journal-');
const noLog = (): void => undefined;

const THREAD = testThread('th1');
const TURN: Turn = { id: 'turn1', threadId: 'th1', status: 'running', input: [{ type: 'text', text: 'count' }] };
const QUESTION = testItem('u1', 'count', { type: 'userMessage', turnId: 'turn1' });
const open = (id: string): Item => ({
  id,
  type: 'agentMessage',
  status: 'inProgress',
  createdAtMs: 2,
  content: { text: '' },
  turnId: 'turn1',
});
/** How Codex's history shows the turn after it died: the user's message, the turn interrupted or still in progress. */
const codexSays = (status: Turn['status']): ShownTurn[] => [{ turn: { ...TURN, status }, tail: true }];

/** A journal in `dir` that relayed the start of turn1: the question, then `deltas` of answer `a1`. */
function relayed(dir: string, deltas: readonly string[]): CodexJournal {
  const journal = new CodexJournal(dir, noLog, () => 5);
  journal.load();
  journal.turnStarted(TURN, THREAD);
  journal.itemStarted('th1', { ...QUESTION, status: 'inProgress' });
  journal.itemCompleted('th1', QUESTION);
  journal.itemStarted('th1', open('a1'));
  for (const d of deltas) journal.delta('th1', 'a1', d);
  return journal;
}

/** A journal opened again on `dir`, as a Codex adapter started later (or by a daemon started again) opens it. */
function reopened(dir: string): CodexJournal {
  const journal = new CodexJournal(dir, noLog, () => 9);
  journal.load();
  return journal;
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((f) => join(dir, f));
}

describe('the Codex journal', () => {
  it('keeps the whole answer relayed before Codex died, masked, and reads it back once after the question, marked interrupted', () => {
    const dir = tempDir();
    const secret = 'sk-proj-A1b2C3d4E5f6G7h8J9k0L1m2N3o4P5';
    const journal = relayed(dir, ['Counting: 1 2 3 ', secret.slice(0, 10), secret.slice(10), ' 4 5']);
    journal.agentGone();
    journal.close();

    for (const status of ['interrupted', 'running'] as const) {
      const read = reopened(dir).merge('th1', [QUESTION], codexSays(status));
      expect(read.items.map((i) => i.id)).toEqual(['u1', 'a1']);
      expect(read.items[1]).toMatchObject({ status: 'completed', content: { text: 'Counting: 1 2 3 sk-*** 4 5' } });
      expect(read.unfinishedTurns).toEqual([
        expect.objectContaining({ id: 'turn1', status: 'interrupted', error: { message: CODEX_STOPPED } }),
      ]);
    }
    const files = filesUnder(dir);
    for (const f of files) {
      const mode = statSync(f).mode & 0o777;
      if (statSync(f).isDirectory()) expect(mode, f).toBe(0o700);
      else {
        expect(mode, f).toBe(0o600);
        expect(readFileSync(f, 'utf8'), f).not.toContain('A1b2C3d4E5f6');
      }
    }
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('keeps what it had journaled of the answer when the process relaying it was killed too', () => {
    const dir = tempDir();
    const words = Array.from({ length: 400 }, (_, i) => `${i + 1}`);
    relayed(
      dir,
      words.map((w) => `${w} `),
    );
    // No agentGone: the Tether process died with Codex. The store closes the turn when it opens again.
    const read = reopened(dir).merge('th1', [QUESTION], codexSays('interrupted'));
    expect(read.items.map((i) => i.id)).toEqual(['u1', 'a1']);
    const kept = (read.items[1]!.content as { text: string }).text;
    expect(kept.length).toBeGreaterThan(0);
    expect(words.join(' ').startsWith(kept.trimEnd())).toBe(true);
    expect(read.unfinishedTurns).toEqual([expect.objectContaining({ id: 'turn1', status: 'interrupted' })]);
  });

  it("adds nothing Codex's history holds, nothing to a turn that completed, and nothing to a page without the turn's end", () => {
    const dir = tempDir();
    const journal = relayed(dir, ['partial ', 'answer']);
    journal.agentGone();
    journal.close();
    const reader = reopened(dir);
    const codexKept = testItem('a1', 'partial', { turnId: 'turn1' });
    const kept = reader.merge('th1', [QUESTION, codexKept], codexSays('interrupted'));
    expect(kept.items).toEqual([QUESTION, codexKept]);
    expect(kept.unfinishedTurns.map((t) => t.id)).toEqual(['turn1']);

    expect(reader.merge('th1', [QUESTION], codexSays('completed'))).toEqual({ items: [QUESTION], unfinishedTurns: [] });
    const older = reader.merge('th1', [QUESTION], [{ turn: { ...TURN, status: 'interrupted' }, tail: false }]);
    expect(older.items).toEqual([QUESTION]);
    expect(reader.merge('th1', [QUESTION], codexSays('running'), 'turn1')).toEqual({
      items: [QUESTION],
      unfinishedTurns: [],
    });
  });

  it('journals a completed turn with its items and keeps nothing to add for it; ephemeral threads are not journaled', () => {
    const dir = tempDir();
    const journal = relayed(dir, ['done']);
    const answer = { ...testItem('a1', 'done', { turnId: 'turn1' }), createdAtMs: 2 };
    journal.itemCompleted('th1', answer);
    journal.turnEnded({ ...TURN, status: 'completed', completedAtMs: 3 });
    journal.agentGone();
    journal.turnStarted({ ...TURN, id: 'turn2', threadId: 'eph' }, testThread('eph', { ephemeral: true }));
    journal.close();
    const read = reopened(dir).merge('th1', [QUESTION], codexSays('interrupted'));
    expect(read.items).toEqual([QUESTION, answer]);
    expect(filesUnder(dir).some((f) => f.includes('eph'))).toBe(false);
  });
});
