#!/usr/bin/env node
// The reference app-server measured at its client: a `/stream 100000` turn over stdio (deltas per second, server peak
// RSS) next to the same turn in-process behind an in-memory transport (the engine's own cost, no pipe);
// interrupt latency mid-stream; `thread/read` of a thread with 100,000 items, its latest page and all its pages (time,
// server peak RSS); `thread/list`
// over 1,000 threads (time, and server start-up with that many).
// Usage: node bench/app-server.bench.mjs [--quick]   (writes bench/results/app-server.json and the "App-server"
// section of BENCHMARKS.md)
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ensureHostBundle,
  fmt as f,
  importTypeScript,
  machine,
  median,
  spawnAppServer,
  timeOneTurn,
  writeResults,
  writeSection,
} from './support.mjs';

const quick = process.argv.includes('--quick');
const STREAM_DELTAS = quick ? 20_000 : 100_000;
const READ_ITEMS = quick ? 20_000 : 100_000;
const LIST_THREADS = 1000;
const RUNS = quick ? 1 : 3;

// ---------------------------------------------------------------- the code under test
const dist = await ensureHostBundle();
// The store (to lay down big threads fast) and the engine (for the in-process case) are TypeScript: bundle them.
const { ThreadStore, createAppServer, createMemoryTransportPair } = await importTypeScript(
  'app-server',
  [
    "export { ThreadStore } from './native-host/src/store/thread-store';",
    "export { createAppServer } from './native-host/src/app-server/index';",
    "export { createMemoryTransportPair } from '@tether/protocol';",
  ].join('\n'),
);

const work = mkdtempSync(join(tmpdir(), 'tether-as-bench-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

function until(proc, test) {
  return new Promise((resolve) => {
    const previous = proc.onNotification;
    proc.onNotification = (m) => {
      previous(m);
      if (test(m)) {
        proc.onNotification = previous;
        resolve(m);
      }
    };
  });
}

const best = (xs) => Math.max(...xs);

// ---------------------------------------------------------------- /stream N over stdio
async function streamOverStdio() {
  const proc = await spawnAppServer(dist, ['--memory'], work);
  await proc.initialize();
  const { thread } = await proc.request('thread/start', { ephemeral: true });
  let deltas = 0;
  proc.onNotification = (m) => {
    if (m.method === 'item/agentMessage/delta') deltas++;
  };
  const t0 = performance.now();
  const done = until(proc, (m) => m.method === 'turn/completed');
  await proc.request('turn/start', { threadId: thread.id, input: [{ text: `/stream ${STREAM_DELTAS}` }] });
  await done;
  const seconds = (performance.now() - t0) / 1000;
  const rss = proc.peakRssMb();
  await proc.stop();
  if (deltas !== STREAM_DELTAS) throw new Error(`expected ${STREAM_DELTAS} deltas, got ${deltas}`);
  return { deltasPerSecond: STREAM_DELTAS / seconds, seconds, peakRssMb: rss };
}

// ---------------------------------------------------------------- the same turn in-process (engine only, no pipe)
async function streamInProcess() {
  const server = createAppServer({ dataDir: null });
  const [client, serverSide] = createMemoryTransportPair();
  server.connect(serverSide);
  let deltas = 0;
  const ms = await timeOneTurn(client, { ephemeral: true }, `/stream ${STREAM_DELTAS}`, (m) => {
    if (m.method === 'item/agentMessage/delta') deltas++;
  });
  const seconds = ms / 1000;
  await server.close();
  if (deltas !== STREAM_DELTAS) throw new Error(`expected ${STREAM_DELTAS} deltas in-process, got ${deltas}`);
  return { deltasPerSecond: STREAM_DELTAS / seconds, seconds };
}

// ---------------------------------------------------------------- interrupt latency mid-stream
async function interruptLatency() {
  const proc = await spawnAppServer(dist, ['--memory'], work);
  await proc.initialize();
  const samples = [];
  for (let i = 0; i < 5; i++) {
    const { thread } = await proc.request('thread/start', { ephemeral: true });
    const firstDeltas = until(proc, (m) => m.method === 'item/agentMessage/delta' && m.params.delta === '1000 ');
    const { turn } = await proc.request('turn/start', { threadId: thread.id, input: [{ text: '/stream 10000000' }] });
    await firstDeltas;
    const done = until(proc, (m) => m.method === 'turn/completed' && m.params.turn.id === turn.id);
    const t0 = performance.now();
    await proc.request('turn/interrupt', { threadId: thread.id, turnId: turn.id });
    await done;
    samples.push(performance.now() - t0);
  }
  await proc.stop();
  return { medianMs: median(samples), maxMs: Math.max(...samples) };
}

// ---------------------------------------------------------------- thread/read of a 100,000-item thread
function seedBigThread(dataDir, items) {
  const store = new ThreadStore(dataDir, () => {});
  const now = Date.now();
  const thread = {
    id: 'thread_big',
    title: 'big',
    model: 'scripted',
    status: 'idle',
    archived: false,
    ephemeral: false,
    createdAtMs: now,
    updatedAtMs: now,
  };
  store.create(thread);
  const text = 'The quick brown fox jumps over the lazy dog; pack my box with five dozen liquor jugs. 0123456789';
  for (let i = 0; i < items; i += 1000) {
    for (let j = i; j < Math.min(items, i + 1000); j++) {
      const type = j % 2 === 0 ? 'userMessage' : 'agentMessage';
      store.appendItem(thread.id, {
        id: `item_${j}`,
        type,
        status: 'completed',
        createdAtMs: now,
        completedAtMs: now,
        content: { text },
        turnId: `turn_${j >> 1}`,
      });
    }
  }
  store.close();
  return thread.id;
}

async function readBigThread() {
  const dataDir = join(work, 'read');
  const threadId = seedBigThread(dataDir, READ_ITEMS);
  const journalMb = statSync(join(dataDir, 'threads', `${threadId}.jsonl`)).size / 1e6;
  const proc = await spawnAppServer(dist, ['--data-dir', dataDir], work);
  await proc.initialize();
  const idleRss = proc.peakRssMb();
  let firstRss = NaN;
  const firstPage = [];
  const walks = [];
  let pages = 0;
  for (let i = 0; i < RUNS; i++) {
    // The latest page (what a side panel opening the thread waits for), then every older page back to the first item.
    const t0 = performance.now();
    const latest = await proc.request('thread/read', { threadId });
    firstPage.push(performance.now() - t0);
    let seen = latest.items.length;
    let cursor = latest.olderCursor;
    pages = 1;
    while (cursor) {
      const older = await proc.request('thread/history/read', { threadId, cursor });
      seen += older.items.length;
      cursor = older.olderCursor;
      pages++;
    }
    walks.push(performance.now() - t0);
    if (seen !== READ_ITEMS) throw new Error(`read ${seen} items over ${pages} pages, expected ${READ_ITEMS}`);
    if (i === 0) firstRss = proc.peakRssMb();
  }
  const rss = proc.peakRssMb();
  await proc.stop();
  return {
    items: READ_ITEMS,
    journalMb,
    pages,
    firstPageMs: median(firstPage),
    allPagesMs: median(walks),
    idleRssMb: idleRss,
    firstReadPeakRssMb: firstRss,
    peakRssMb: rss,
  };
}

// ---------------------------------------------------------------- start-up
async function startEmpty() {
  const times = [];
  for (let i = 0; i < RUNS + 2; i++) {
    const t0 = performance.now();
    const proc = await spawnAppServer(dist, ['--data-dir', join(work, `empty-${i}`)], work);
    await proc.initialize();
    times.push(performance.now() - t0);
    await proc.stop();
  }
  return median(times);
}

// ---------------------------------------------------------------- thread/list over 1,000 threads
async function listThreads() {
  const dataDir = join(work, 'list');
  const store = new ThreadStore(dataDir, () => {});
  const now = Date.now();
  for (let i = 0; i < LIST_THREADS; i++) {
    const thread = {
      id: `thread_${i}`,
      title: `Thread ${i}`,
      model: 'scripted',
      status: 'idle',
      archived: false,
      ephemeral: false,
      createdAtMs: now + i,
      updatedAtMs: now + i,
    };
    const items = Array.from({ length: 20 }, (_, j) => ({
      id: `item_${j}`,
      type: 'agentMessage',
      status: 'completed',
      createdAtMs: now,
      completedAtMs: now,
      content: { text: 'x'.repeat(200) },
    }));
    store.create(thread, items);
  }
  store.close();
  const starts = [];
  let proc;
  for (let i = 0; i < RUNS + 2; i++) {
    if (proc) await proc.stop();
    const t0 = performance.now();
    proc = await spawnAppServer(dist, ['--data-dir', dataDir], work);
    await proc.initialize();
    starts.push(performance.now() - t0);
  }
  const startMs = median(starts);
  const page = [];
  const all = [];
  for (let i = 0; i < RUNS + 2; i++) {
    let t = performance.now();
    const first = await proc.request('thread/list', {});
    page.push(performance.now() - t);
    t = performance.now();
    const whole = await proc.request('thread/list', { limit: 1000 });
    all.push(performance.now() - t);
    if (first.threads.length !== 50 || whole.threads.length !== LIST_THREADS)
      throw new Error('thread/list returned the wrong number of threads');
  }
  const rss = proc.peakRssMb();
  await proc.stop();
  return {
    threads: LIST_THREADS,
    startToInitializeMs: startMs,
    firstPageMs: median(page),
    allThreadsMs: median(all),
    peakRssMb: rss,
  };
}

// ---------------------------------------------------------------- run, interleaved, best of RUNS
const stdio = [];
const inProcess = [];
for (let i = 0; i < RUNS; i++) {
  stdio.push(await streamOverStdio());
  inProcess.push(await streamInProcess());
}
const interrupt = await interruptLatency();
const read = await readBigThread();
const list = await listThreads();
const emptyStartMs = await startEmpty();
const bestStdio = stdio.reduce((a, b) => (b.deltasPerSecond > a.deltasPerSecond ? b : a));
const results = {
  date: new Date().toISOString(),
  machine: { ...machine(), loadAverage: loadavg()[0] },
  stream: {
    deltas: STREAM_DELTAS,
    stdio: bestStdio,
    inProcess: { deltasPerSecond: best(inProcess.map((r) => r.deltasPerSecond)) },
    peakRssMb: Math.max(...stdio.map((r) => r.peakRssMb)),
  },
  interrupt,
  read,
  list: { ...list, emptyStartToInitializeMs: emptyStartMs },
};
console.log(JSON.stringify(results, null, 2));
writeResults('app-server', results);

if (!quick) {
  const m = results.machine;
  const section = [
    '## App-server',
    '',
    `Measured ${results.date.slice(0, 10)} on ${m.cpu.split(' ').slice(0, 2).join(' ')}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}, ${m.platform} by \`node bench/app-server.bench.mjs\` (figures also in \`bench/results/app-server.json\`).`,
    'Times are taken at the client: from sending the request to reading (and JSON-parsing) the last message it waits for.',
    `The server is \`tether app-server --listen stdio\` (the bundled \`dist/tether.mjs\`); "in-process" is the same engine behind`,
    "`createMemoryTransportPair()`, the engine without any pipe (the host's embedded backend uses a cheaper link that does not clone messages: see the Extension section's host-alone row). Best of " +
      RUNS +
      ' interleaved runs; medians for latencies.',
    `Absolute figures vary 20-30% between runs on this shared machine (load average ${f(m.loadAverage, 1)} at the end of this run).`,
    '',
    '| case | figure |',
    '|---|---:|',
    `| \`/stream ${f(STREAM_DELTAS)}\` over stdio | ${f(results.stream.stdio.deltasPerSecond)} deltas/s (${f(results.stream.stdio.seconds, 2)} s) |`,
    `| \`/stream ${f(STREAM_DELTAS)}\` in-process | ${f(results.stream.inProcess.deltasPerSecond)} deltas/s |`,
    `| server peak RSS during the stdio stream | ${f(results.stream.peakRssMb, 1)} MB |`,
    `| \`turn/interrupt\` mid-stream to \`turn/completed\` | median ${f(interrupt.medianMs, 1)} ms, max ${f(interrupt.maxMs, 1)} ms |`,
    `| \`thread/read\` (latest page) of a thread of ${f(read.items)} items (${f(read.journalMb, 1)} MB journal) | ${f(read.firstPageMs, 1)} ms |`,
    `| all ${f(read.pages)} pages of it (\`thread/read\`, then \`thread/history/read\` to the first item) | ${f(read.allPagesMs)} ms |`,
    `| server peak RSS: idle / after one walk / after ${RUNS} walks | ${f(read.idleRssMb, 1)} MB / ${f(read.firstReadPeakRssMb, 1)} MB / ${f(read.peakRssMb, 1)} MB |`,
    `| server start to \`initialize\` answer: empty data dir / ${f(list.threads)} threads on disk | ${f(emptyStartMs)} ms / ${f(list.startToInitializeMs)} ms |`,
    `| \`thread/list\` first page (50) of ${f(list.threads)} threads | ${f(list.firstPageMs, 2)} ms |`,
    `| \`thread/list\` all ${f(list.threads)} threads (limit 1000) | ${f(list.allThreadsMs, 2)} ms |`,
    `| server peak RSS with ${f(list.threads)} threads listed | ${f(list.peakRssMb, 1)} MB |`,
    '',
    'Listing reads only the thread index (`threads/index.jsonl`), never a journal. Reading a thread reads its journal',
    'backwards one page at a time (1 MiB / 100 turns), so memory follows the page, not the thread.',
    '',
  ].join('\n');
  writeSection('App-server', section);
  console.log('\nwrote bench/results/app-server.json and the "App-server" section of BENCHMARKS.md');
}
