#!/usr/bin/env node
// The side panel under a fast stream, in real Chromium: a `/stream 20000` answer through the real host and
// extension (rendered deltas per second, longest main-thread task in the panel), next to the raw rate of 20,000
// single-message native frames from a bare host to the service worker in the same browser run, the host alone
// driven from Node (the producer's ceiling), the page <-> worker <-> host round trip, and lone-delta latency from a
// probe backend that stamps each delta with its write time.
// Usage: node bench/sidepanel.bench.mjs [--quick]   (needs `npm run build`; writes bench/results/sidepanel.json and
// the "Extension" section of BENCHMARKS.md)
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSupport } from '../test/scripts/load-support.mjs';
import { renderedStream } from './sidepanel-render.mjs';
import { fmt, importCodec, machine as machineOf, median, nativeFrame, publish, root } from './support.mjs';

const { NativeFrameDecoder } = await importCodec();

const quick = process.argv.includes('--quick');
const DELTAS = quick ? 5_000 : 20_000;
const RUNS = quick ? 1 : 3;
const ROUND_TRIPS = quick ? 50 : 200;

/** A bare native host: on {count} it writes that many single-message frames at once, each a ~120-byte delta. */
const FRAME_HOST = `
const write = (obj) => { const body = Buffer.from(JSON.stringify(obj)); const head = Buffer.alloc(4); head.writeUInt32LE(body.length); return Buffer.concat([head, body]); };
let buf = Buffer.alloc(0);
process.stdin.on('data', (chunk) => {
  buf = Buffer.concat([buf, chunk]);
  while (buf.length >= 4 && buf.length >= 4 + buf.readUInt32LE(0)) {
    const len = buf.readUInt32LE(0); const msg = JSON.parse(buf.subarray(4, 4 + len).toString()); buf = buf.subarray(4 + len);
    const frames = [];
    for (let i = 0; i < msg.count; i++) frames.push(write({ method: 'item/agentMessage/delta', params: { threadId: 'thread_1', turnId: 'turn_1', itemId: 'item_1', delta: String(i) + ' ' } }));
    process.stdout.write(Buffer.concat(frames));
  }
});
process.stdin.on('end', () => process.exit(0));
`;

/**
 * A minimal JSONL app-server used as a command backend: each answer is deltas written 40 ms apart, each carrying the
 * wall-clock time (performance.timeOrigin + now, sub-millisecond) at which it was written, so the page can tell how long
 * a lone delta took to reach it through host, browser and worker.
 */
const PROBE_BACKEND = `
const { performance } = require('node:perf_hooks');
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
const now = () => performance.timeOrigin + performance.now();
let buf = '';
let n = 0;
const thread = (id) => ({ id, title: 'probe', model: 'probe', status: 'idle', archived: false, ephemeral: true, createdAtMs: Date.now(), updatedAtMs: Date.now() });
process.stdin.on('data', (chunk) => {
  buf += chunk;
  let i;
  while ((i = buf.indexOf('\\n')) >= 0) {
    const line = buf.slice(0, i); buf = buf.slice(i + 1);
    if (!line.trim()) continue;
    const m = JSON.parse(line);
    if (m.id === undefined) continue;
    const p = m.params || {};
    if (m.method === 'initialize') send({ id: m.id, result: { serverInfo: { name: 'probe', version: '0' }, protocolVersion: '2026-06-02', supportedTransports: ['stdio'], capabilities: {} } });
    else if (m.method === 'thread/start') send({ id: m.id, result: { thread: thread('probe_' + (++n)) } });
    else if (m.method === 'thread/resume') send({ id: m.id, result: { thread: thread(p.threadId), items: [] } });
    else if (m.method === 'model/list') send({ id: m.id, result: { models: [] } });
    else if (m.method === 'turn/start') {
      const turn = { id: 'turn_' + (++n), threadId: p.threadId, status: 'running', input: p.input };
      send({ id: m.id, result: { turn } });
      const count = Number(String(p.input[0].text).split(' ')[1] || 50);
      const item = { id: 'item_' + (++n), type: 'agentMessage', status: 'inProgress', createdAtMs: Date.now(), content: { text: '' } };
      send({ method: 'item/started', params: { threadId: p.threadId, turnId: turn.id, item } });
      let k = 0;
      const timer = setInterval(() => {
        send({ method: 'item/agentMessage/delta', params: { threadId: p.threadId, turnId: turn.id, itemId: item.id, delta: now().toFixed(3) + ' ' } });
        if (++k < count) return;
        clearInterval(timer);
        send({ method: 'item/completed', params: { threadId: p.threadId, turnId: turn.id, item: { ...item, status: 'completed', content: { text: '' } } } });
        send({ method: 'turn/completed', params: { turn: { ...turn, status: 'completed' } } });
      }, 40);
    } else send({ id: m.id, error: { code: -32601, message: 'not supported by the probe' } });
  }
});
`;

/** Lone deltas: host-side write time to page arrival, through the real extension. */
async function loneDeltaLatency(launchBrowser, demo, openWebPage, waitConnected, sendPrompt) {
  const dir = mkdtempSync(join(tmpdir(), 'tether-probe-'));
  writeFileSync(join(dir, 'probe.cjs'), PROBE_BACKEND);
  const browser = await launchBrowser({
    hostConfig: {
      defaultBackend: 'probe',
      backends: { probe: { kind: 'command', argv: [process.execPath, join(dir, 'probe.cjs')], dialect: 'tether' } },
    },
  });
  try {
    const { tabId } = await openWebPage(browser, demo.url('/'));
    const panel = await browser.context.newPage();
    await panel.addInitScript(() => {
      const connect = chrome.runtime.connect.bind(chrome.runtime);
      window.__lat = [];
      chrome.runtime.connect = (...args) => {
        const port = connect(...args);
        port.onMessage.addListener((m) => {
          if (m.type !== 'events') return;
          const at = performance.timeOrigin + performance.now();
          for (const e of m.events)
            if (e.method === 'item/agentMessage/delta') window.__lat.push(at - Number.parseFloat(e.params.delta));
        });
        return port;
      };
    });
    await panel.goto(`chrome-extension://${browser.extensionId}/src/sidepanel/index.html?tab=${tabId}`);
    await waitConnected(panel);
    const count = quick ? 30 : 100;
    await sendPrompt(panel, `/probe ${count}`);
    await panel.waitForFunction((c) => window.__lat.length >= c, count, { timeout: 60_000, polling: 200 });
    const lat = (await panel.evaluate(() => window.__lat)).slice(5).sort((a, b) => a - b); // skip the first few (warm-up)
    return { count: lat.length, p50: lat[Math.floor(lat.length / 2)], p99: lat[Math.floor(lat.length * 0.99)] };
  } finally {
    await browser.close();
  }
}

/**
 * The producer alone: the same host and embedded backend driven from Node over stdio, counting deltas as they arrive.
 * The side panel cannot render faster than this, so it is the ceiling the extension's figure is compared with.
 */
async function hostAlone(homeDir) {
  const child = spawn(
    process.execPath,
    [
      join(root, 'native-host/dist/tether.mjs'),
      'host',
      '--allow-dev-extension',
      'chrome-extension://gkplngjhinednckbmppipofijkaplcpm/',
    ],
    {
      env: {
        ...process.env,
        XDG_CONFIG_HOME: join(homeDir, 'c'),
        XDG_DATA_HOME: join(homeDir, 'd'),
        XDG_STATE_HOME: join(homeDir, 's'),
      },
      stdio: ['pipe', 'pipe', 'ignore'],
    },
  );
  const send = (msg) => child.stdin.write(nativeFrame(JSON.stringify(msg)));
  const waiters = new Map();
  let deltas = 0;
  let t0 = 0;
  let t1 = 0;
  let onDone;
  const done = new Promise((resolve) => (onDone = resolve));
  const decoder = new NativeFrameDecoder({
    message: (m) => {
      if (m.id !== undefined && !m.method) waiters.get(m.id)?.(m);
      if (m.method === 'item/agentMessage/delta') {
        if (deltas === 0) t0 = performance.now();
        deltas += 1;
        t1 = performance.now();
      }
      if (m.method === 'turn/completed') onDone();
    },
    error: (error) => {
      throw error;
    },
  });
  child.stdout.on('data', (chunk) => decoder.push(chunk));
  let id = 0;
  const call = (method, params) =>
    new Promise((resolve) => {
      waiters.set(++id, resolve);
      send({ id, method, params });
    });
  await call('bridge/hello', {});
  await call('initialize', { clientInfo: { name: 'bench', version: '0' } });
  send({ method: 'initialized' });
  const { result } = await call('thread/start', { title: 'bench' });
  await call('turn/start', { threadId: result.thread.id, input: [{ text: `/stream ${DELTAS}` }] });
  await done;
  child.stdin.end();
  return { deltas, ms: t1 - t0 };
}

async function rawFrames(browser) {
  const dir = join(browser.homeDir, 'bench-host');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'host.cjs'), FRAME_HOST);
  const launcher = join(dir, 'host.sh');
  writeFileSync(launcher, `#!/bin/sh\nexec "${process.execPath}" "${join(dir, 'host.cjs')}"\n`);
  chmodSync(launcher, 0o755);
  writeFileSync(
    join(browser.userDataDir, 'NativeMessagingHosts', 'dev.tether.bench.json'),
    JSON.stringify({
      name: 'dev.tether.bench',
      description: 'Tether benchmark frame host',
      path: launcher,
      type: 'stdio',
      allowed_origins: [`chrome-extension://${browser.extensionId}/`],
    }),
  );
  const sw = await browser.serviceWorker();
  return sw.evaluate(
    (count) =>
      new Promise((resolve, reject) => {
        const port = chrome.runtime.connectNative('dev.tether.bench');
        let n = 0;
        const t0 = performance.now();
        port.onDisconnect.addListener(() =>
          reject(new Error(chrome.runtime.lastError?.message ?? 'bench host closed')),
        );
        port.onMessage.addListener(() => {
          n += 1;
          if (n === count) {
            const ms = performance.now() - t0;
            port.disconnect();
            resolve({ count, ms });
          }
        });
        port.postMessage({ count });
      }),
    DELTAS,
  );
}

async function roundTrips(panel) {
  return panel.evaluate(async (n) => {
    const port = chrome.runtime.connect({ name: 'tether-view' });
    const waiting = new Map();
    port.onMessage.addListener((m) => {
      if (m.type === 'result' || m.type === 'error') waiting.get(m.id)?.(m);
    });
    port.postMessage({ type: 'hello', view: 'options', tabId: null });
    const times = [];
    for (let id = 1; id <= n; id++) {
      const t0 = performance.now();
      await new Promise((resolve) => {
        waiting.set(id, resolve);
        port.postMessage({ type: 'call', id, op: 'model/list', params: {} });
      });
      times.push(performance.now() - t0);
    }
    port.disconnect();
    times.sort((a, b) => a - b);
    return { p50: times[Math.floor(n / 2)], p99: times[Math.floor(n * 0.99)] };
  }, ROUND_TRIPS);
}

async function main() {
  const loadAtStart = loadavg()[0];
  const { mod, cleanup } = await loadSupport();
  const { launchBrowser, startDemoServer, openWebPage, openSidePanel, waitConnected, sendPrompt } = mod;
  const demo = await startDemoServer();
  const browser = await launchBrowser();
  const results = { raw: [], rendered: [], producer: [], roundTrip: undefined, lone: undefined };
  try {
    const { tabId } = await openWebPage(browser, demo.url('/'));
    const panel = await openSidePanel(browser, tabId);
    await waitConnected(panel);
    // Warm-up at full size (thread, JIT of every process on the path, first layout), not measured.
    await sendPrompt(panel, `/stream ${DELTAS}`);
    await panel.locator('.transcript .item.agentMessage.completed').first().waitFor({ timeout: 120_000 });
    await hostAlone(join(browser.homeDir, 'alone-warm-up'));
    for (let i = 0; i < RUNS; i++) {
      results.raw.push(await rawFrames(browser));
      results.rendered.push(await renderedStream(panel, sendPrompt, DELTAS));
      results.producer.push(await hostAlone(join(browser.homeDir, `alone-${i}`)));
      console.log(
        `run ${i + 1}: raw ${fmt(results.raw.at(-1).count / (results.raw.at(-1).ms / 1000))} frames/s, rendered ${fmt(DELTAS / (results.rendered.at(-1).ms / 1000))} deltas/s, longest task ${fmt(results.rendered.at(-1).longestTaskMs)} ms, host alone ${fmt(results.producer.at(-1).deltas / (results.producer.at(-1).ms / 1000))} deltas/s`,
      );
    }
    results.roundTrip = await roundTrips(panel);
    results.lone = await loneDeltaLatency(launchBrowser, demo, openWebPage, waitConnected, sendPrompt);
  } finally {
    await browser.close();
    await demo.close();
    cleanup();
  }

  const rawRate = median(results.raw.map((r) => r.count / (r.ms / 1000)));
  const renderedRate = median(results.rendered.map((r) => DELTAS / (r.ms / 1000)));
  const producerRate = median(results.producer.map((r) => r.deltas / (r.ms / 1000)));
  const longest = Math.max(...results.rendered.map((r) => r.longestTaskMs));
  const whole = results.rendered.every((r) => r.whole);
  const oneWay = results.lone.p50;

  const m = machineOf();
  const machine = `${m.cpu.split(' ').slice(0, 2).join(' ')}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}, load average ${loadAtStart.toFixed(1)} at the start`;
  const section = [
    '## Extension',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on ${machine}, Debian Chromium headless, by \`node bench/sidepanel.bench.mjs\``,
    `(figures also in \`bench/results/sidepanel.json\`). Median of ${RUNS} runs in one browser after a full-size warm-up. "Rendered" is a \`/stream ${DELTAS}\``,
    'answer (each in a new thread) through the real host, embedded scripted backend, service worker and side panel, from the first text node to',
    'the frame after the completed answer is in the DOM (an answer this long stays plain text; shorter ones are re-rendered',
    'as markdown on completion). "Raw" is a bare host writing the same',
    'number of single-message frames at once to the service worker, which only counts them. "Host alone" is the same',
    'host and embedded backend driven from Node over stdio: what the producer can emit, a ceiling for the panel.',
    '',
    '| measure | value | target | met |',
    '|---|---:|---:|---|',
    `| raw host -> worker, one message per frame | ${fmt(rawRate)} msg/s | (ceiling of one frame per message) | |`,
    `| host alone (producer), deltas over stdio | ${fmt(producerRate)} deltas/s | | |`,
    `| rendered deltas in the side panel | ${fmt(renderedRate)} deltas/s (${(renderedRate / rawRate).toFixed(1)}x raw, ${Math.round((100 * renderedRate) / producerRate)}% of host alone) | >= 50,000 and above raw | ${renderedRate >= 50_000 && renderedRate > rawRate ? 'yes' : 'NO'} |`,
    `| longest main-thread task in the panel | ${longest > 0 ? `${fmt(longest)} ms` : 'none over 50 ms'} | <= 100 ms | ${longest <= 100 ? 'yes' : 'NO'} |`,
    `| page -> worker -> host -> worker -> page round trip (model/list), p50 / p99 | ${results.roundTrip.p50.toFixed(2)} / ${results.roundTrip.p99.toFixed(2)} ms | | |`,
    `| lone delta, backend write -> side panel page, p50 / p99 (${results.lone.count} deltas 40 ms apart) | ${oneWay.toFixed(2)} / ${results.lone.p99.toFixed(2)} ms | p50 <= 5 ms | ${oneWay <= 5 ? 'yes' : 'NO'} |`,
    `| every delta rendered, in order | ${whole ? 'yes' : 'NO'} | | |`,
    '',
    `Each run (raw / host alone / rendered, per second): ${results.raw
      .map(
        (r, i) =>
          `${fmt(r.count / (r.ms / 1000))} / ${fmt(results.producer[i].deltas / (results.producer[i].ms / 1000))} / ${fmt(DELTAS / (results.rendered[i].ms / 1000))}`,
      )
      .join('; ')}. On this shared 2-core machine the three processes`,
    'of the path (host, browser, renderers) compete for the cores, so the spread between runs is large; compare ratios.',
    '',
  ].join('\n');
  console.log(`\n${section}`);
  publish('sidepanel', { deltas: DELTAS, runs: RUNS, loadAtStart, ...results }, 'Extension', section);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
