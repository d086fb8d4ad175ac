#!/usr/bin/env node
// The widget suite (test/widgets/, issue 20) side by side in one run: every task through Tether's page tools end to
// end (MCP client -> `tether mcp` -> host -> extension in Debian Chromium, site rules made first so no card shows)
// with trusted input on and off, through Tether's page agent in Firefox ESR (driven directly, as
// test/page-agent/firefox.test.ts does: Firefox has no debugger API, so this is all the input Tether has there), and
// through Playwright MCP 0.0.83 on the same pages. Each task is judged by the widget's own state.
// Usage: node bench/widgets.bench.mjs [--only TASK,TASK] [--modes trusted,synthetic,firefox,playwright]
// A full run writes bench/results/widgets.json and the "Widget suite" section of BENCHMARKS.md; a run cut down by
// --only or --modes only prints, so it never overwrites the published figures. Needs the built extension (npm run
// build) for the Chromium modes; takes a few minutes.
import { loadavg } from 'node:os';
import { fmt, importWidgetSuite, machine as machineOf, median, publish } from './support.mjs';

const onlyArg = process.argv.indexOf('--only');
const only = onlyArg === -1 ? undefined : process.argv[onlyArg + 1]?.split(',');
const MODE_KEYS = ['trusted', 'synthetic', 'firefox', 'playwright'];
const modesArg = process.argv.indexOf('--modes');
const modeKeys = modesArg === -1 ? MODE_KEYS : (process.argv[modesArg + 1]?.split(',') ?? []);
const unknownMode = modeKeys.find((key) => !MODE_KEYS.includes(key));
if (unknownMode !== undefined || modeKeys.length === 0) {
  console.error(`--modes takes a comma-separated list of ${MODE_KEYS.join(', ')}; got "${unknownMode ?? ''}"`);
  process.exit(2);
}
const partial = only !== undefined || modesArg !== -1;

/** Runs the tasks on the tools `start` gives; a mode that cannot start is reported with its reason. */
async function runMode(label, start, suite, site, tasks) {
  const t0 = performance.now();
  let tools;
  try {
    tools = await start();
  } catch (error) {
    return { label, skipped: error instanceof Error ? error.message.split('\n')[0] : String(error) };
  }
  const startMs = Math.round(performance.now() - t0);
  try {
    const results = await suite.runSuite(tools, site, tasks);
    console.log(`${label}: ${results.filter((r) => r.passed).length} of ${results.length} passed`);
    for (const r of results) if (!r.passed) console.log(`  ${r.task}: ${r.reason}`);
    return { label, startMs, results, cards: tools.cardsDuringTasks?.() };
  } finally {
    await tools.close();
  }
}

const cell = (text) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const short = (reason) => cell(reason.length > 110 ? `${reason.slice(0, 107)}...` : reason);

function section(data, m) {
  const { modes, tasks, loadAtStart } = data;
  const ran = modes.filter((mode) => mode.results);
  const passed = (mode) => mode.results.filter((r) => r.passed).length;
  const counts = modes.map((mode) =>
    mode.results
      ? `| ${mode.label} | ${passed(mode)} of ${mode.results.length} | ${fmt(mode.results.reduce((s, r) => s + r.ms, 0) / 1000, 1)} s | ${fmt(median(mode.results.map((r) => r.ms)))} ms | ${fmt(median(mode.results.map((r) => r.snapshotChars)))} | ${mode.cards ?? ''} |`
      : `| ${mode.label} | not run: ${short(mode.skipped)} | | | | |`,
  );
  const rows = tasks.map((task) => {
    const marks = ran.map((mode) => {
      const r = mode.results.find((x) => x.task === task.name);
      return r ? (r.passed ? `yes (${fmt(r.ms / 1000, 1)} s)` : 'no') : '';
    });
    return `| ${task.name} | ${cell(task.widget)} | ${marks.join(' | ')} |`;
  });
  const failures = ran.flatMap((mode) =>
    mode.results.filter((r) => !r.passed).map((r) => `| ${mode.label} | ${r.task} | ${short(r.reason)} |`),
  );
  return [
    '## Widget suite',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on ${m.cpu.split(' ').slice(0, 2).join(' ')}, ${m.cores} cores, Node ${m.node}, load average ${loadAtStart.toFixed(1)} at the start, by`,
    '`node bench/widgets.bench.mjs` (figures also in `bench/results/widgets.json`). The tasks are `test/widgets/tasks.ts`:',
    'real widgets from npm on a local site, each solved by one generic solver (snapshot, find the line by role and name,',
    "act on its ref) and judged by the widget's own state read through the browser's automation channel, never through",
    'the tools. Tether runs end to end through `tether mcp` (MCP client -> host -> extension in Debian Chromium, the',
    'grants made first by calling each tool once; "cards" counts cards that still showed during the tasks: uploads ask',
    'every time by design); Firefox ESR runs',
    "Tether's page agent directly (puppeteer-core over BiDi; no extension, host or MCP hop); Playwright MCP 0.0.83 runs",
    'over MCP stdio on its own Chromium. One mode after the other in one run; a task time includes opening its page.',
    '',
    '| mode | tasks passed | all tasks | median task | median snapshot chars per task | cards |',
    '|---|---:|---:|---:|---:|---:|',
    ...counts,
    '',
    `| task | widget | ${ran.map((mode) => mode.label).join(' | ')} |`,
    `|---|---|${ran.map(() => '---|').join('')}`,
    ...rows,
    '',
    "What failed and why (the step and the tool's own words, or the state the judge saw):",
    '',
    '| mode | task | cause |',
    '|---|---|---|',
    ...failures,
    '',
  ].join('\n');
}

async function main() {
  const loadAtStart = loadavg()[0];
  const suite = await importWidgetSuite();
  const tasks = only ? suite.TASKS.filter((t) => only.includes(t.name)) : suite.TASKS;
  const site = await suite.startWidgetSite();
  try {
    const modes = [];
    if (modeKeys.includes('trusted'))
      modes.push(
        await runMode(
          'Tether, Chromium, trusted input',
          () => suite.startTetherMcp(site, 'Chromium, trusted input', 'always'),
          suite,
          site,
          tasks,
        ),
      );
    if (modeKeys.includes('synthetic')) {
      let synthetic = await runMode(
        'Tether, Chromium, synthetic input',
        () => suite.startTetherMcp(site, 'Chromium, synthetic input', 'off'),
        suite,
        site,
        tasks,
      );
      // Until the trusted-input setting exists, the default (synthetic) is what "without" means.
      if (synthetic.skipped)
        synthetic = await runMode(
          'Tether, Chromium, default input',
          () => suite.startTetherMcp(site, 'Chromium, default input'),
          suite,
          site,
          tasks,
        );
      modes.push(synthetic);
    }
    if (modeKeys.includes('firefox'))
      modes.push(await runMode('Tether page agent, Firefox ESR', () => suite.startFirefoxAgent(), suite, site, tasks));
    if (modeKeys.includes('playwright'))
      modes.push(
        await runMode('Playwright MCP 0.0.83', () => suite.startPlaywrightMcp(suite.TASK_FILES), suite, site, tasks),
      );
    const data = { loadAtStart, tasks: tasks.map(({ name, widget }) => ({ name, widget })), modes };
    const text = section(data, machineOf());
    console.log(`\n${text}`);
    if (!partial) publish('widgets', data, 'Widget suite', text);
  } finally {
    await site.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
