#!/usr/bin/env node
// The side panel under a fast stream, in real Chromium: a `/stream 20000` answer through the real host and
// extension (rendered deltas per second, longest main-thread task in the panel), next to the raw rate of 20,000
// single-message native frames from a bare host to the service worker in the same browser run, and the
// page <-> worker <-> host round trip.
// Usage: node bench/sidepanel.bench.mjs [--quick]   (needs `npm run build`; writes bench/results/sidepanel.json and
// the "Extension" section of BENCHMARKS.md)
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { loadSupport, root } from '../test/scripts/load-support.mjs';

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

async function rawFrames(browser) {
  const dir = join(browser.homeDir, 'bench-host');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'host.cjs'), FRAME_HOST);
  const launcher = join(dir, 'host.sh');
  writeFileSync(launcher, `#!/bin/sh\nexec "${process.execPath}" "${join(dir, 'host.cjs')}"\n`);
  chmodSync(launcher, 0o755);
  writeFileSync(
    join(browser.userDataDir, 'NativeMessagingHosts', 'dev.tether.bench.json'),
    JSON.stringify({ name: 'dev.tether.bench', description: 'Tether benchmark frame host', path: launcher, type: 'stdio', allowed_origins: [`chrome-extension://${browser.extensionId}/`] }),
  );
  const sw = await browser.serviceWorker();
  return sw.evaluate(
    (count) =>
      new Promise((resolve, reject) => {
        const port = chrome.runtime.connectNative('dev.tether.bench');
        let n = 0;
        const t0 = performance.now();
        port.onDisconnect.addListener(() => reject(new Error(chrome.runtime.lastError?.message ?? 'bench host closed')));
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

async function renderedStream(panel, sendPrompt) {
  await panel.evaluate(() => {
    const b = (window.__bench = { longest: 0, t0: 0, t1: 0, done: false });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) b.longest = Math.max(b.longest, e.duration);
    }).observe({ type: 'longtask' });
    const answers = () => document.querySelectorAll('.transcript .item.agentMessage').length;
    const before = answers();
    const list = document.querySelector('.transcript');
    new MutationObserver((records, observer) => {
      for (const r of records) {
        for (const node of r.addedNodes) {
          if (!b.t0 && node.nodeType === Node.TEXT_NODE && node.parentElement?.closest('.item.agentMessage') && answers() > before) b.t0 = performance.now();
          if (node instanceof HTMLElement && node.matches('.item.agentMessage.completed') && answers() > before) {
            observer.disconnect();
            requestAnimationFrame(() => {
              b.t1 = performance.now();
              b.done = true;
            });
          }
        }
      }
    }).observe(list, { childList: true, subtree: true });
  });
  await sendPrompt(panel, `/stream ${DELTAS}`);
  await panel.waitForFunction(() => window.__bench.done, undefined, { timeout: 120_000, polling: 500 });
  const b = await panel.evaluate(() => window.__bench);
  const text = await panel.locator('.transcript .item.agentMessage .body').last().textContent();
  const whole = text.trim().split(/\s+/).length === DELTAS;
  return { ms: b.t1 - b.t0, longestTaskMs: b.longest, whole };
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

const fmt = (n) => Math.round(n).toLocaleString('en-US');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const loadAtStart = loadavg()[0];
  const { mod, cleanup } = await loadSupport();
  const { launchBrowser, startDemoServer, openWebPage, openSidePanel, waitConnected, sendPrompt } = mod;
  const demo = await startDemoServer();
  const browser = await launchBrowser();
  const results = { raw: [], rendered: [], roundTrip: undefined };
  try {
    const { tabId } = await openWebPage(browser, demo.url('/'));
    const panel = await openSidePanel(browser, tabId);
    await waitConnected(panel);
    await sendPrompt(panel, '/stream 200'); // warm-up: thread, JIT, first layout
    await panel.locator('.transcript .item.agentMessage.completed').first().waitFor({ timeout: 60_000 });
    for (let i = 0; i < RUNS; i++) {
      results.raw.push(await rawFrames(browser));
      results.rendered.push(await renderedStream(panel, sendPrompt));
      console.log(`run ${i + 1}: raw ${fmt(results.raw.at(-1).count / (results.raw.at(-1).ms / 1000))} frames/s, rendered ${fmt(DELTAS / (results.rendered.at(-1).ms / 1000))} deltas/s, longest task ${fmt(results.rendered.at(-1).longestTaskMs)} ms`);
    }
    results.roundTrip = await roundTrips(panel);
  } finally {
    await browser.close();
    await demo.close();
    cleanup();
  }

  const rawRate = median(results.raw.map((r) => r.count / (r.ms / 1000)));
  const renderedRate = median(results.rendered.map((r) => DELTAS / (r.ms / 1000)));
  const longest = Math.max(...results.rendered.map((r) => r.longestTaskMs));
  const whole = results.rendered.every((r) => r.whole);
  const oneWay = results.roundTrip.p50 / 2;
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(join(root, 'bench/results/sidepanel.json'), JSON.stringify({ deltas: DELTAS, runs: RUNS, ...results }, null, 2));

  const machine = `${cpus()[0]?.model.split(' ').slice(0, 2).join(' ') ?? 'unknown CPU'}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, load average ${loadAtStart.toFixed(1)} at the start`;
  const section = [
    '## Extension',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on ${machine}, Debian Chromium headless, by \`node bench/sidepanel.bench.mjs\``,
    `(figures also in \`bench/results/sidepanel.json\`). Median of ${RUNS} runs in one browser. "Rendered" is a \`/stream ${DELTAS}\``,
    'answer through the real host, embedded scripted backend, service worker and side panel, from the first text node to',
    'the frame after the completed answer is in the DOM (markdown render included). "Raw" is a bare host writing the same',
    'number of single-message frames at once to the service worker, which only counts them.',
    '',
    '| measure | value | target | met |',
    '|---|---:|---:|---|',
    `| raw host -> worker, one message per frame | ${fmt(rawRate)} msg/s | (ceiling of one frame per message) | |`,
    `| rendered deltas in the side panel | ${fmt(renderedRate)} deltas/s | >= 50,000 and above raw | ${renderedRate >= 50_000 && renderedRate > rawRate ? 'yes' : 'NO'} |`,
    `| longest main-thread task in the panel | ${longest > 0 ? `${fmt(longest)} ms` : 'none over 50 ms'} | <= 100 ms | ${longest <= 100 ? 'yes' : 'NO'} |`,
    `| page -> worker -> host -> worker -> page round trip (model/list), p50 / p99 | ${results.roundTrip.p50.toFixed(2)} / ${results.roundTrip.p99.toFixed(2)} ms | | |`,
    `| lone delta host -> page, p50 (estimated as half the round trip) | ${oneWay.toFixed(2)} ms | <= 5 ms | ${oneWay <= 5 ? 'yes' : 'NO'} |`,
    `| every delta rendered, in order | ${whole ? 'yes' : 'NO'} | | |`,
    '',
  ].join('\n');
  writeSection(join(root, 'BENCHMARKS.md'), 'Extension', section);
  console.log(`\n${section}\nwrote bench/results/sidepanel.json and the "Extension" section of BENCHMARKS.md`);
}

/** Replaces (or appends) one "## title" section, leaving the other helpers' sections alone. */
function writeSection(file, title, section) {
  const header = '# Benchmarks\n\nMeasured figures for Tether; each section is written by its benchmark in `bench/` (`npm run bench`).\n';
  const text = existsSync(file) ? readFileSync(file, 'utf8') : header;
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.trim() === `## ${title}`);
  if (start === -1) {
    writeFileSync(file, `${text.replace(/\n*$/, '\n\n')}${section}`);
    return;
  }
  let end = lines.findIndex((l, i) => i > start && l.startsWith('## '));
  if (end === -1) end = lines.length;
  const before = lines.slice(0, start).join('\n');
  const after = lines.slice(end).join('\n');
  writeFileSync(file, `${before.replace(/\n*$/, '\n\n')}${section}${after ? `\n${after}` : ''}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
