#!/usr/bin/env node
// The thread store measured at a real app-server process over stdio: opening a 10,000-item (20 MB) thread
// (`thread/resume` answer time, server RSS after it and after three `thread/read`s), the cost of a turn on a thread
// that already has 5,000 turns next to turns on a new thread, and what threads/index.jsonl weighs after them.
// Usage: node bench/store.bench.mjs [--quick] [--before DIR]
//   --before DIR   also measures the app-server built in DIR (DIR/native-host/dist/tether.mjs), in the same run,
//                  side by side: e.g. a `git archive` of the commit before a change, built with its own scripts.
// Writes bench/results/store.json.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensureHostBundle, fmt as f, importTypeScript, machine, median, publish, spawnAppServer } from './support.mjs';

const quick = process.argv.includes('--quick');
const beforeAt = process.argv.indexOf('--before');
const beforeDir = beforeAt > 0 ? resolve(process.argv[beforeAt + 1]) : undefined;
const OPEN_ITEMS = 10_000;
const ITEM_TEXT = 2000; // 10,000 items of ~2 KB: the 20 MB thread
const PRIOR_TURNS = quick ? 1000 : 5000;
const MEASURED_TURNS = 20;

const work = mkdtempSync(join(tmpdir(), 'tether-store-bench-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

// ---------------------------------------------------------------- data laid down as the store writes it
// The records and the journal writer the store's own tests use (TypeScript source: bundled once, then imported).
const { testItem, testThread, writeThreadJournal } = await importTypeScript(
  'journal-fixtures',
  "export * from './native-host/src/testing/journal-fixtures';",
);

/** A data dir with one thread of `turns` turns, each a question and an answer of about `answerBytes` characters. */
function dataDir(name, threadId, turns, answerBytes) {
  const dir = join(work, name);
  const filler = 'lorem ipsum dolor sit amet '.repeat(Math.ceil(answerBytes / 27)).slice(0, answerBytes);
  const records = [];
  for (let t = 0; t < turns; t++) {
    const turn = { id: `turn_${t}`, threadId, status: 'running', input: [{ text: `question ${t}` }], startedAtMs: 1 };
    const item = (n, type, text) => testItem(`item_${t}_${n}`, text, { type, turnId: turn.id, completedAtMs: 1 });
    records.push({ type: 'turn', turn });
    records.push({ type: 'item', item: item('u', 'userMessage', `question ${t}: ${filler}`) });
    records.push({ type: 'item', item: item('a', 'agentMessage', filler) });
    records.push({ type: 'turn', turn: { ...turn, status: 'completed', completedAtMs: 2 } });
  }
  // `grants: []` in the index, as the store writes it for a new thread (a thread from before grants moved to the
  // index pays one journal scan on its first turn instead).
  writeThreadJournal(dir, testThread(threadId), records);
  return dir;
}

// ---------------------------------------------------------------- open a 10,000-item thread
async function openBigThread(dist) {
  const dir = dataDir('open', 'thread_big', OPEN_ITEMS / 2, ITEM_TEXT);
  const journalMb = statSync(join(dir, 'threads', 'thread_big.jsonl')).size / 1e6;
  const proc = await spawnAppServer(dist, ['--data-dir', dir], work);
  await proc.initialize();
  const idle = proc.rssMb().now;
  const t0 = performance.now();
  const resumed = await proc.request('thread/resume', { threadId: 'thread_big' });
  const firstPageMs = performance.now() - t0;
  const afterOpen = proc.rssMb();
  const reads = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    await proc.request('thread/read', { threadId: 'thread_big' });
    reads.push(performance.now() - t);
  }
  const afterReads = proc.rssMb();
  // Walk the older pages (new servers only): every item once.
  let pages = 1;
  let items = resumed.items.length;
  let walkMs = 0;
  for (let cursor = resumed.olderCursor; cursor; pages++) {
    const t = performance.now();
    const page = await proc.request('thread/history/read', { threadId: 'thread_big', cursor });
    walkMs += performance.now() - t;
    items += page.items.length;
    cursor = page.olderCursor;
  }
  const afterWalk = proc.rssMb();
  await proc.stop();
  rmSync(dir, { recursive: true, force: true });
  return {
    journalMb,
    firstPageMs,
    firstPageItems: resumed.items.length,
    readMs: median(reads),
    idleRssMb: idle,
    rssAfterOpenMb: afterOpen.now,
    rssAfterThreeReadsMb: afterReads.now,
    peakRssMb: Math.max(afterReads.peak, afterWalk.peak),
    pages,
    itemsSeen: items,
    walkMs,
  };
}

// ---------------------------------------------------------------- a turn on a long thread next to a new one
async function timeTurns(proc, threadId, n) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const done = proc.notification((m) => m.method === 'turn/completed' && m.params.turn.threadId === threadId);
    const t0 = performance.now();
    await proc.request('turn/start', { threadId, input: [{ text: `hello ${i}` }] });
    await done;
    times.push(performance.now() - t0);
  }
  return times;
}

async function turnCost(dist) {
  const dir = dataDir('turns', 'thread_long', PRIOR_TURNS - 1, 200);
  const proc = await spawnAppServer(dist, ['--data-dir', dir], work);
  await proc.initialize();
  const { thread: fresh } = await proc.request('thread/start', { title: 'fresh' });
  const newThread = await timeTurns(proc, fresh.id, MEASURED_TURNS);
  const longThread = await timeTurns(proc, 'thread_long', MEASURED_TURNS);
  const indexBytes = statSync(join(dir, 'threads', 'index.jsonl')).size;
  // Many turns in one run: the index grows by lines per turn unless it is compacted.
  const many = await timeTurns(proc, fresh.id, quick ? 100 : 500);
  const indexAfterMany = statSync(join(dir, 'threads', 'index.jsonl')).size;
  await proc.stop();
  rmSync(dir, { recursive: true, force: true });
  return {
    priorTurns: PRIOR_TURNS - 1,
    firstTurnMs: newThread[0],
    newThreadTurnMs: median(newThread.slice(1)),
    firstTurnOnLongThreadMs: longThread[0],
    longThreadTurnMs: median(longThread.slice(1)),
    lastOfManyTurnsMs: median(many.slice(-10)),
    manyTurns: many.length + MEASURED_TURNS,
    indexBytesAfterMeasuredTurns: indexBytes,
    indexBytesAfterManyTurns: indexAfterMany,
  };
}

// ---------------------------------------------------------------- run
const variants = [];
if (beforeDir) variants.push(['before', join(beforeDir, 'native-host/dist/tether.mjs')]);
variants.push(['after', await ensureHostBundle()]);
const results = {};
for (const [name, dist] of variants) {
  results[name] = { open: await openBigThread(dist), turns: await turnCost(dist) };
}

const rows = [
  ['journal of the opened thread (MB)', (r) => f(r.open.journalMb, 1)],
  ['open: thread/resume answered (ms)', (r) => f(r.open.firstPageMs, 1)],
  ['open: items in that answer', (r) => f(r.open.firstPageItems)],
  ['open: thread/read, median of 3 (ms)', (r) => f(r.open.readMs, 1)],
  ['server RSS idle (MB)', (r) => f(r.open.idleRssMb)],
  ['server RSS after the open (MB)', (r) => f(r.open.rssAfterOpenMb)],
  ['server RSS after three reads (MB)', (r) => f(r.open.rssAfterThreeReadsMb)],
  ['server peak RSS (MB)', (r) => f(r.open.peakRssMb)],
  ["pages to the thread's start / items seen", (r) => `${r.open.pages} / ${f(r.open.itemsSeen)}`],
  ['all older pages read (ms)', (r) => f(r.open.walkMs, 1)],
  ['first turn of a new thread (ms)', (r) => f(r.turns.firstTurnMs, 1)],
  ['turn on a new thread, median (ms)', (r) => f(r.turns.newThreadTurnMs, 2)],
  [`first turn after ${f(PRIOR_TURNS - 1)} turns (ms)`, (r) => f(r.turns.firstTurnOnLongThreadMs, 1)],
  [`turn ${f(PRIOR_TURNS)}+, median (ms)`, (r) => f(r.turns.longThreadTurnMs, 2)],
  ['ratio: long-thread turn / new-thread turn', (r) => f(r.turns.longThreadTurnMs / r.turns.newThreadTurnMs, 2)],
  ['index.jsonl after the measured turns (bytes)', (r) => f(r.turns.indexBytesAfterMeasuredTurns)],
  [`index.jsonl after ${quick ? 140 : 540} turns in one run (bytes)`, (r) => f(r.turns.indexBytesAfterManyTurns)],
  ['last 10 of those turns, median (ms)', (r) => f(r.turns.lastOfManyTurnsMs, 2)],
];
const names = Object.keys(results);
const table = [
  `| measure | ${names.join(' | ')} |`,
  `|---|${names.map(() => '---:').join('|')}|`,
  ...rows.map(([label, get]) => `| ${label} | ${names.map((n) => get(results[n])).join(' | ')} |`),
];
console.log(table.join('\n'));
const m = machine();
const figures = { date: new Date().toISOString(), machine: m, quick, ...results };
if (quick) publish('store', figures);
else {
  const section = [
    '## Thread store',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on ${m.cpu.split(' ').slice(0, 2).join(' ')}, ${m.cores} cores, Node ${m.node}, ${m.platform} by`,
    `\`node bench/store.bench.mjs${beforeDir ? ' --before DIR' : ''}\` (figures also in \`bench/results/store.json\`): a real \`tether app-server\` over`,
    `stdio opening a thread of ${f(OPEN_ITEMS)} items and running turn ${f(PRIOR_TURNS)} of one thread${beforeDir ? ', "before" being the app-server built from DIR in the same run' : ''}.`,
    'Targets: the first page of the 10,000-item thread in under 20 ms with server RSS under 100 MB; a turn on a long thread',
    'within 2x of a turn on a new one.',
    '',
    ...table,
    '',
  ].join('\n');
  publish('store', figures, 'Thread store', section);
}
