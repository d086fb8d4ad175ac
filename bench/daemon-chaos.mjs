#!/usr/bin/env node
// The daemon chaos soak, for minutes (not in CI; `npm test` runs its short forms, test/daemon/daemon-chaos.test.ts and
// test/e2e/daemon-chaos-browser.test.ts): two simulated browsers relaying to one daemon (the embedded backend and a
// command backend) and a real Chromium with the extension (its side panels on the command backend), streaming turns
// and command approvals, and at random SIGKILL or a normal close of a host, the extension's service worker stopped
// through CDP, SIGKILL of Chromium's host, SIGKILL of the command backend, SIGTERM and SIGKILL of the daemon. Then:
// every acknowledged item once in its journal, in what a reconnecting client reads and in the panel reopened on its
// thread, each command run at most once (a marker file each), no process left behind, the daemon's memory flat.
// The soak's core is test/support/daemon-chaos.ts, bundled from the tests' TypeScript as other benches do.
// Usage: node bench/daemon-chaos.mjs [--minutes N] [--seed S] [--calm-minutes C] [--no-chromium]   (default 5 minutes,
// a seed from the clock; the last C minutes, default the lesser of 3 and a third, restart no daemon, so one lives long
// enough for its memory to be compared between the first and last third of its samples; --no-chromium leaves the real
// browser out; writes bench/results/daemon-chaos.json and the "Daemon chaos soak" section of BENCHMARKS.md; needs
// `npm run build` for the extension)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fmt, importTypeScript, machine, publish, root } from './support.mjs';

const option = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const minutes = option('minutes', 5);
const seed = option('seed', Date.now() % 2 ** 31);
const calmMinutes = option('calm-minutes', Math.min(3, minutes / 3));
const chromium = !process.argv.includes('--no-chromium');
if (!(minutes > 0) || !Number.isInteger(seed)) {
  console.error('usage: node bench/daemon-chaos.mjs [--minutes N] [--seed S] [--calm-minutes C] [--no-chromium]');
  process.exit(2);
}

const { runChaos } = await importTypeScript('daemon-chaos', "export { runChaos } from './test/support/daemon-chaos';", {
  external: ['playwright-core'],
  // The test helpers find the repository from their own place (two folders below the root).
  define: { 'import.meta.url': JSON.stringify(pathToFileURL(join(root, 'test/support/bundle.mjs')).href) },
});

const m = machine();
const machineText = `${m.cores} x ${m.cpu}, ${m.memoryGiB} GiB, Node ${m.node}`;
const loadAt = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const loadAtStart = loadAt();
console.log(`machine: ${machineText}; load average ${loadAtStart}; seed ${seed}; ${minutes} minute(s)`);
const started = performance.now();
const report = await runChaos({
  seed,
  durationMs: minutes * 60_000,
  calmDaemonMs: calmMinutes * 60_000,
  chromium,
  log: (line) => console.log(line),
});
const wallMinutes = (performance.now() - started) / 60_000;
const loadAtEnd = loadAt();
console.log(JSON.stringify(report, null, 1));

const e = (name) => report.events[name] ?? 0;
const rows = [
  '| what | count |',
  '|---|---:|',
  `| steps (a turn started or not, then one chaos action or none) | ${fmt(report.steps)} |`,
  `| host SIGKILL / host closed normally | ${e('host SIGKILL')} / ${e('host closed')} |`,
  `| command backend SIGKILL | ${e('backend SIGKILL')} |`,
  `| daemon SIGTERM / daemon SIGKILL | ${e('daemon SIGTERM')} / ${e('daemon SIGKILL')} |`,
  `| browser reconnects (host started, \`thread/resume\` after the last item it had) | ${e('reconnect')} (${e('reconnect failed')} failed) |`,
  `| turns started: streaming / command | ${e('turn stream')} / ${e('turn command')} (${e('turn refused')} refused, e.g. a turn already running; logged with the reason) |`,
  `| turns a client saw end: completed / interrupted / failed | ${e('turn completed')} / ${e('turn interrupted')} / ${e('turn failed')} |`,
  `| approval requests seen (re-shown ones included) / answered allow / deny | ${e('approval asked')} / ${e('approval allow')} / ${e('approval deny')} |`,
  `| commands asked / reported run / declined / marker files written | ${report.commands.asked} / ${report.commands.ran} / ${report.commands.declined} / ${report.commands.written} |`,
  `| threads / items acknowledged (a client saw them completed) | ${report.threads} / ${fmt(report.itemsAcknowledged)} |`,
  ...(chromium
    ? [
        `| Chromium: service worker stopped (CDP) / its host SIGKILLed | ${e('worker stop')} / ${e('browser host SIGKILL')} |`,
        `| Chromium: chaos while a panel streamed or showed a card (worker stop / its host / backend / daemon SIGTERM / SIGKILL) | ${e('worker stop during a panel turn')} / ${e('browser host SIGKILL during a panel turn')} / ${e('backend SIGKILL during a panel turn')} / ${e('daemon SIGTERM during a panel turn')} / ${e('daemon SIGKILL during a panel turn')} |`,
        `| Chromium: turns typed into a panel: streaming / command (both panels busy: none typed) | ${e('panel turn stream')} / ${e('panel turn command')} (${e('panel busy')}) |`,
        `| Chromium: cards answered in the panel allow / deny | ${e('panel approval allow')} / ${e('panel approval deny')} |`,
        `| Chromium: threads / items a panel showed finished | ${report.panel.threads} / ${fmt(report.panel.itemsAcknowledged)} |`,
      ]
    : []),
  `| daemon RSS, longest-lived daemon (${report.rss.samples} samples): first third / last third median | ${fmt(report.rss.firstThirdMb, 1)} / ${fmt(report.rss.lastThirdMb, 1)} MB |`,
  `| processes left behind | ${report.orphans.length} |`,
  `| problems found | ${report.problems.length} |`,
];
const table = rows.join('\n');
const section = [
  '## Daemon chaos soak',
  '',
  `Run ${new Date().toISOString().slice(0, 10)} on ${machineText} by \`node bench/daemon-chaos.mjs --minutes ${minutes} --seed ${seed} --calm-minutes ${fmt(calmMinutes, 1)}${chromium ? '' : ' --no-chromium'}\``,
  `(${fmt(wallMinutes, 1)} minutes with the drain and checks; figures also in \`bench/results/daemon-chaos.json\`); load average`,
  `${loadAtStart} at the start, ${loadAtEnd} at the end. Two simulated browsers (real \`tether host\` relays driven over`,
  'stdio, as the service worker drives them), one served by the embedded backend and one by a command backend (a',
  '`tether app-server` child of the daemon), against one daemon in a runtime folder of its own. Turns: `/stream N 4`',
  '(N 100-600) and `/bash sleep 0.3; echo ran >> marker-K` (a command approval, half answered at once, the rest left',
  'pending across the chaos).',
  chromium
    ? [
        'Beside them a real Chromium (headless, the built extension, its host relaying to the same daemon) with two tabs',
        'and their side panels on the command backend: turns typed into the panels (`/stream N 20 3`, N 200-600, a few',
        'seconds, and the same `/bash` commands, whose card waits in the panel; half the cards shown are answered each',
        'step, allow four times in five, the rest after the chaos), its service worker stopped through the CDP target',
        '(`ServiceWorker.stopAllWorkers`, as an extension reload stops it with its host) and its host SIGKILLed; the',
        "daemon restarts and backend SIGKILLs reach it too (the extension reconnects by itself). Not exercised: Chrome's",
        'own idle stop of the worker, closing or killing the whole browser (the daemon-browser-restart and',
        'daemon-approval-restart tests do that one event at a time), the embedded backend under a real browser.',
      ].join('\n')
    : 'No browser this run (`--no-chromium`): the service worker is not stopped.',
  '',
  'Checks afterwards: every item a client saw completed is in its journal once and in what a fresh client reads',
  '(`thread/read` and older pages) once; no item reaches a client twice (notification and `thread/resume`); what a',
  'client streamed equals the completed item; streamed answers have no gap or duplicate; a turn that did not finish is',
  'read back as unfinished; each command ran at most once (exactly once when reported run, never when declined); no',
  "process carrying the run's environment mark outlives the daemon; the daemon's RSS (the last minutes restart no daemon, so",
  'the daemon sampled most often lived through them).',
  ...(chromium
    ? [
        'For Chromium: no panel ever shows an item twice; each of its threads, reopened from History in a fresh panel',
        '(older pages loaded), shows every journaled item exactly once and every item a panel showed finished during the',
        'chaos exactly once, answers reading as journaled; the same thread/read and journal checks as above.',
      ]
    : []),
  '',
  table,
  '',
  report.problems.length === 0
    ? 'Problems: none.'
    : `Problems:\n${report.problems.map((p) => `- ${p.replace(/\n/g, ' ')}`).join('\n')}`,
  '',
].join('\n');
publish('daemon-chaos', { loadAtStart, loadAtEnd, machine: machineText, ...report }, 'Daemon chaos soak', section);
process.exit(report.problems.length === 0 ? 0 : 1);
