/**
 * Property of streamed text journaling: whatever text an answer streams (secrets of every shape the masker knows in
 * it, split into deltas anywhere, a secret's halves in two deltas included), no `text` record of the journal holds a
 * secret, and what crash recovery reads back is the masked form of a prefix of what was streamed (the text up to the
 * last journaled chunk, masked whole).
 *
 * A failure prints its seed and path: replay with `test.prop([...], { seed, path, endOnFailure: true })`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { secrets } from '../secrets';
import { startRunningTurn, testItem } from '../testing/journal-fixtures';
import { useTempDirs } from '../testing/temp-dirs';
import { ThreadStore } from './thread-store';

const tempDir = useTempDirs('tether-stream-prop-');
const noLog = (): void => undefined;

/** A value the masker knows (as if from the environment), wherever and in whatever shape it appears. */
const KNOWN = 'known value 7f3a9c2e';
secrets.learn([KNOWN]);

const token = fc.stringMatching(/^[A-Za-z0-9]{24,40}$/).map((t) => `${t}9`);
/** Secrets of every shape the masker masks, each with the part that must never reach a journal. */
const secret: fc.Arbitrary<{ text: string; value: string }> = fc.oneof(
  token.map((t) => ({ text: `sk-${t}`, value: t })),
  token.map((t) => ({ text: `ghp_${t}`, value: t })),
  token.map((t) => ({ text: `github_pat_${t}`, value: t })),
  token.map((t) => ({ text: `glpat-${t}`, value: t })),
  token.map((t) => ({ text: `xoxb-${t}`, value: t })),
  token.map((t) => ({ text: `hf_${t}`, value: t })),
  fc.stringMatching(/^[0-9A-Z]{16}$/).map((t) => ({ text: `AKIA${t}`, value: t })),
  fc.stringMatching(/^[0-9A-Za-z]{35}$/).map((t) => ({ text: `AIza${t}`, value: t })),
  token.map((t) => ({ text: `eyJ${t}.eyJ${t}x.${t}`, value: `${t}x` })),
  fc
    .tuple(fc.constantFrom('Bearer ', 'Bearer\n', 'Basic  '), token)
    .map(([scheme, t]) => ({ text: `${scheme}${t}`, value: t })),
  fc
    .tuple(fc.constantFrom('API_KEY=', 'password=', 'export OPENAI_API_KEY=', 'token="'), token)
    .map(([lead, t]) => ({ text: `${lead}${t}${lead.endsWith('"') ? '"' : ''}`, value: t })),
  fc
    .tuple(fc.constantFrom('password="', "secret='"), token, token)
    .map(([lead, a, b]) => ({ text: `${lead}${a} ${'words '.repeat(60)}${b}${lead.at(-1)}`, value: a })),
  fc
    .tuple(fc.constantFrom('--api-key ', '--token=', '--password\n'), token)
    .map(([f, t]) => ({ text: `${f}${t}`, value: t })),
  fc
    .tuple(fc.constantFrom('mysql -u root -p', 'redis-cli -a '), token)
    .map(([c, t]) => ({ text: `${c}${t}`, value: t })),
  fc
    .tuple(fc.constantFrom('Authorization: token ', 'x-api-key: ', 'Cookie: sid='), token)
    .map(([h, t]) => ({ text: `${h}${t}`, value: t })),
  token.map((t) => ({ text: `{"api_key": "${t}"}`, value: t })),
  token.map((t) => ({ text: `https://user:${t}@example.com/x`, value: t })),
  token.map((t) => ({ text: `https://example.com/?access_token=${t}&x=1`, value: t })),
  token.map((t) => ({
    text: `-----BEGIN RSA PRIVATE KEY-----\n${t}\n${'A'.repeat(300)}\n-----END RSA PRIVATE KEY-----`,
    value: t,
  })),
  fc.constant({ text: KNOWN, value: KNOWN }),
);
/** Prose around them: words, spaces, newlines and runs of them, quotes and punctuation. */
const prose = fc
  .array(fc.constantFrom('the', 'words', 'x', ' ', ' ', ' ', '\n', '  ', '\n\n', '"', "'", '-', ':', '.', '='), {
    maxLength: 300,
  })
  .map((parts) => parts.join(''));
const answer = fc.array(fc.tuple(prose, secret), { minLength: 3, maxLength: 12 }).chain((parts) =>
  fc.tuple(
    fc.constant(parts),
    prose,
    // Where the text is cut into deltas: anywhere, a secret's halves in two deltas included.
    fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 40 }),
  ),
);

function deltasOf(text: string, sizes: number[]): string[] {
  const out: string[] = [];
  for (let at = 0, i = 0; at < text.length; i++) {
    const size = sizes[i % sizes.length]!;
    out.push(text.slice(at, at + size));
    at += size;
  }
  return out;
}

describe('streamed text in the journal', () => {
  test.prop([answer], { numRuns: 150 })(
    'holds no secret and recovers as the masked prefix of what was streamed',
    ([parts, tail, sizes]) => {
      const streamed = parts.map(([p, s]) => p + s.text).join('') + tail;
      const dir = tempDir();
      const store = new ThreadStore(dir, noLog);
      startRunningTurn(store);
      store.appendStreamStart('t1', { ...testItem('a1', '', { turnId: 'turn_1' }), status: 'inProgress' });
      for (const delta of deltasOf(streamed, sizes)) store.appendStreamText('t1', 'a1', delta);
      // No close(): the process "died" here.
      const journal = readFileSync(join(dir, 'threads', 't1.jsonl'), 'utf8');
      // Every secret the masker masks in the whole text (glued to a neighbour, some shapes are not secrets any more).
      const masked = secrets.text(streamed);
      for (const [, s] of parts) if (!masked.includes(s.value)) expect(journal).not.toContain(s.value);
      const journaled = journal
        .split('\n')
        .filter((l) => l.startsWith('{"type":"text"'))
        .map((l) => (JSON.parse(l) as { text: string }).text)
        .join('');

      const again = new ThreadStore(dir, noLog, () => 99);
      const items = again.allItems('t1');
      expect(items).toHaveLength(1);
      const recovered = (items[0]!.content as { text: string }).text;
      // Some prefix of the streamed text, masked whole, is what was journaled: at most the unjournaled tail is lost.
      const boundaries = [...streamed.matchAll(/\s(?=\S)/g)].map((m) => m.index + m[0].length);
      expect([0, ...boundaries].some((at) => secrets.text(streamed.slice(0, at)) === journaled)).toBe(true);
      // Recovery journals it as an item, a line masked like every other (masking is not idempotent: `x=***y=1` loses
      // its `y=`, so the item's text is the journaled text masked again).
      expect(recovered).toBe(secrets.text(journaled));
      again.close();
      store.close();
    },
  );
});
