#!/usr/bin/env node
// Opening a long thread in the side panel, in real Chromium: a 10,000-item thread (5,000 turns, markdown answers,
// a ~14 MB journal) is opened from History through the real host and embedded thread store. Reports the time from
// the click to the first frame that shows the thread, the longest main-thread task in the panel until the view has
// settled, the panel's peak JS heap (sampled through CDP), and the host's resident set (now and its peak).
// Usage: node bench/long-thread.bench.mjs [--quick]   (needs `npm run build`; writes bench/results/long-thread.json
// and the "Long threads in the side panel" section of BENCHMARKS.md)
// TETHER_EXTENSION_DIST=<dir> measures another build of the extension (a before/after comparison).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSupport } from '../test/scripts/load-support.mjs';
import { fmt, importTypeScript, machine as machineOf, median, publish } from './support.mjs';

const quick = process.argv.includes('--quick');
const TURNS = 5_000;
const RUNS = quick ? 1 : 3;
const THREAD_ID = 'thread_bench_long';
const TARGETS = { firstPaintMs: 200, longestTaskMs: 100, heapMb: 60, hostRssMb: 150 };

/** An answer of about 2.5 KB with a heading, a list, a table row, inline code and a code block, as models write. */
function answer(t) {
  const para = `Answer ${t}: the page lists **${t % 97} items** and links to [the docs](https://example.com/${t}). `;
  return [
    `### Result ${t}`,
    para.repeat(10),
    `- first point about \`item_${t}\`\n- second point, with *emphasis*\n- third point`,
    `| name | value |\n|---|---|\n| turn | ${t} |`,
    `\`\`\`js\nconst turn = ${t};\nconsole.log(turn * 2); // ${'x'.repeat(80)}\n\`\`\``,
    para.repeat(9),
  ].join('\n\n');
}

async function seed() {
  const { testItem, testThread, writeThreadJournal } = await importTypeScript(
    'journal-fixtures',
    "export * from './native-host/src/testing/journal-fixtures';",
  );
  const dir = mkdtempSync(join(tmpdir(), 'tether-bench-long-'));
  function* records() {
    for (let t = 0; t < TURNS; t++) {
      const options = { turnId: `turn_${t}`, completedAtMs: 1 };
      yield {
        type: 'item',
        item: testItem(`item_${t}_q`, `Question ${t}: what does this page say about ${t}?`, {
          ...options,
          type: 'userMessage',
        }),
      };
      yield { type: 'item', item: testItem(`item_${t}_a`, answer(t), options) };
    }
  }
  const journal = writeThreadJournal(
    dir,
    testThread(THREAD_ID, { title: 'A very long conversation', updatedAtMs: 2 }),
    records(),
  );
  return { dir, journalMb: readFileSync(journal).length / 1e6 };
}

function rssOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN) / 1024;
    return { now: kb('VmRSS'), peak: kb('VmHWM') };
  } catch {
    return { now: Number.NaN, peak: Number.NaN };
  }
}

/** Opens the thread from History in a fresh panel; resolves with the figures of that open. */
async function openOnce(browser, tabId, openSidePanel, waitConnected, hostPid) {
  const panel = await openSidePanel(browser, tabId);
  await waitConnected(panel);
  const cdp = await browser.context.newCDPSession(panel);
  await cdp.send('Performance.enable');
  const heap = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    return (metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0) / 2 ** 20;
  };
  await panel.locator('button[data-action="history"]').click();
  const link = panel.locator(`.history li[data-thread-id="${THREAD_ID}"] button.link`);
  await link.waitFor();
  let peakHeap = await heap();
  let peakRss = rssOf(hostPid).now;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peakHeap = Math.max(peakHeap, await heap());
      peakRss = Math.max(peakRss, rssOf(hostPid).now);
      await new Promise((r) => setTimeout(r, 25));
    }
  })();
  await panel.evaluate((threadId) => {
    const b = (window.__bench = { longest: 0, t0: 0, paint: 0, settled: 0 });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.startTime >= b.t0) b.longest = Math.max(b.longest, e.duration);
    }).observe({ type: 'longtask' });
    const list = document.querySelector('.transcript');
    const observer = new MutationObserver(() => {
      if (b.paint || list.dataset.threadId !== threadId || !list.querySelector('[data-item-id]')) return;
      observer.disconnect();
      // The frame that shows the items: after the next rendering opportunity has passed.
      requestAnimationFrame(() => setTimeout(() => (b.paint = performance.now() - b.t0), 0));
    });
    observer.observe(list, { childList: true, subtree: false, attributes: true, attributeFilter: ['data-thread-id'] });
    b.t0 = performance.now();
    document.querySelector(`.history li[data-thread-id="${threadId}"] button.link`).click();
  }, THREAD_ID);
  await panel.waitForFunction(() => window.__bench.paint > 0, undefined, { timeout: 60_000, polling: 20 });
  // Settled: the item count has not changed for a second (older pages are asked for only when the view is not full).
  let last = -1;
  for (let stable = 0; stable < 4; ) {
    await panel.waitForTimeout(250);
    const n = await panel.locator('.transcript > [data-item-id]').count();
    stable = n === last ? stable + 1 : 0;
    last = n;
  }
  sampling = false;
  await sampler;
  const b = await panel.evaluate(() => window.__bench);
  const view = await panel.locator('.scroller').evaluate((s) => s.scrollHeight - s.scrollTop - s.clientHeight);
  await cdp.detach();
  await panel.close();
  return {
    firstPaintMs: b.paint,
    longestTaskMs: b.longest,
    peakHeapMb: peakHeap,
    peakHostRssMb: peakRss,
    items: last,
    pxFromEnd: view,
  };
}

async function main() {
  const loadAtStart = loadavg()[0];
  const { dir, journalMb } = await seed();
  const { mod, cleanup } = await loadSupport();
  const { launchBrowser, startDemoServer, openWebPage, openSidePanel, waitConnected } = mod;
  const demo = await startDemoServer();
  const browser = await launchBrowser({
    hostConfig: {
      defaultBackend: 'embedded',
      backends: { embedded: { kind: 'embedded', model: 'scripted', dataDir: dir } },
    },
  });
  const runs = [];
  let host;
  try {
    const { tabId } = await openWebPage(browser, demo.url('/'));
    const warm = await openSidePanel(browser, tabId);
    await waitConnected(warm);
    await warm.close();
    const [hostPid] = await browser.findProcesses(`chrome-extension://${browser.extensionId}/`);
    if (hostPid === undefined) throw new Error('The host process was not found (is the extension built?)');
    const before = rssOf(hostPid);
    for (let i = 0; i < RUNS; i++) {
      runs.push(await openOnce(browser, tabId, openSidePanel, waitConnected, hostPid));
      const r = runs.at(-1);
      console.log(
        `run ${i + 1}: first paint ${fmt(r.firstPaintMs)} ms, longest task ${fmt(r.longestTaskMs)} ms, panel heap peak ${fmt(r.peakHeapMb, 1)} MB, host RSS peak ${fmt(r.peakHostRssMb, 1)} MB, ${r.items} items shown, ${fmt(r.pxFromEnd)} px from the end`,
      );
    }
    host = { beforeMb: before.now, ...rssOf(hostPid) };
  } finally {
    await browser.close();
    await demo.close();
    cleanup();
    rmSync(dir, { recursive: true, force: true });
  }

  const firstPaint = median(runs.map((r) => r.firstPaintMs));
  const longest = Math.max(...runs.map((r) => r.longestTaskMs));
  const heap = Math.max(...runs.map((r) => r.peakHeapMb));
  const rss = Math.max(host.peak, ...runs.map((r) => r.peakHostRssMb));
  const met = (ok) => (ok ? 'yes' : 'NO');
  const m = machineOf();
  const machine = `${m.cpu.split(' ').slice(0, 2).join(' ')}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}, load average ${loadAtStart.toFixed(1)} at the start`;
  const section = [
    '## Long threads in the side panel',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on ${machine}, Debian Chromium headless, by \`node bench/long-thread.bench.mjs\``,
    `(figures also in \`bench/results/long-thread.json\`). A thread of ${fmt(TURNS * 2)} items (${fmt(TURNS)} turns, markdown answers,`,
    `a ${fmt(journalMb, 1)} MB journal) is opened from History in a new side panel, ${RUNS} times in one browser through the real host`,
    "and its embedded thread store. First paint: from the click to the frame after the thread's items are in the DOM",
    '(median). Longest task: PerformanceObserver `longtask` from the click until the item count has not changed for a',
    'second. Heap: `JSHeapUsedSize` of the panel sampled every 25 ms through CDP. Host RSS: `VmRSS`/`VmHWM` of the host.',
    '',
    '| measure | value | target | met |',
    '|---|---:|---:|---|',
    `| first paint | ${fmt(firstPaint)} ms | < ${TARGETS.firstPaintMs} ms | ${met(firstPaint < TARGETS.firstPaintMs)} |`,
    `| longest main-thread task | ${longest > 0 ? `${fmt(longest)} ms` : 'none over 50 ms'} | <= ${TARGETS.longestTaskMs} ms | ${met(longest <= TARGETS.longestTaskMs)} |`,
    `| panel JS heap at its peak | ${fmt(heap, 1)} MB | < ${TARGETS.heapMb} MB | ${met(heap < TARGETS.heapMb)} |`,
    `| host RSS at its peak (before the first open: ${fmt(host.beforeMb, 1)} MB; after the last: ${fmt(host.now, 1)} MB) | ${fmt(rss, 1)} MB | < ${TARGETS.hostRssMb} MB | ${met(rss < TARGETS.hostRssMb)} |`,
    `| items shown once settled; distance of the view from the end | ${runs.map((r) => r.items).join(', ')}; ${runs.map((r) => `${fmt(r.pxFromEnd)} px`).join(', ')} | at the end | ${met(runs.every((r) => r.pxFromEnd <= 4))} |`,
    '',
  ].join('\n');
  console.log(`\n${section}`);
  publish(
    'long-thread',
    { turns: TURNS, runs, host, loadAtStart, journalMb },
    'Long threads in the side panel',
    section,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
