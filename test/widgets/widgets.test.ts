/**
 * The widget suite's short form (issue 20): every task once through Tether's page tools end to end (an MCP client,
 * `tether mcp`, the host, the extension in Chromium), judged by each widget's own state. The tasks known to fail are
 * listed with their cause; a listed task that starts passing fails this test too, so the list stays true. The full
 * comparison (modes, Playwright MCP, times) is `node bench/widgets.bench.mjs`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTetherMcp, type TetherPageTools } from './drivers/tether-mcp';
import type { TaskResult } from './solver';
import { runSuite } from './suite';
import { TASKS } from './tasks';
import { startWidgetSite, type WidgetSite } from './widget-site';

/**
 * Tasks that fail in Chromium with synthetic input, and why, as measured with the tree of the commit that last changed
 * this list. A task that starts passing must be taken off it (the test says so).
 */
const EXPECTED_FAILURES: Readonly<Record<string, string>> = {
  'hover-menu': 'synthetic events never apply CSS :hover, so the submenu stays display:none and Lamps has no ref',
  'trusted-only-button': 'the click is untrusted and the button ignores it',
};

describe('widget suite in Chromium through tether mcp', () => {
  let site: WidgetSite;
  let tools: TetherPageTools;
  beforeAll(async () => {
    site = await startWidgetSite();
    tools = await startTetherMcp(site, 'Chromium, synthetic input', 'off');
  });
  afterAll(async () => {
    await tools?.close();
    await site?.close();
  });

  it('passes every task known to pass, fails only the listed ones, and asks for nothing but uploads once the grants are made', async () => {
    const results = await runSuite(tools, site);
    for (const r of results) if (!r.passed) console.log(`widget task ${r.task} failed: ${r.reason}`);
    const byName = new Map(results.map((r): [string, TaskResult] => [r.task, r]));
    const surprises = TASKS.flatMap((task) => {
      const result = byName.get(task.name)!;
      const expected = EXPECTED_FAILURES[task.name];
      if (expected === undefined && !result.passed) return [`${task.name} regressed: ${result.reason}`];
      if (expected !== undefined && result.passed)
        return [`${task.name} passes now: remove it from EXPECTED_FAILURES (was: ${expected})`];
      return [];
    });
    expect(surprises).toEqual([]);
    expect(Object.keys(EXPECTED_FAILURES).filter((name) => !byName.has(name))).toEqual([]);
    // Uploads ask every time with the file names on the card (issue 20: never under a rule); nothing else may ask.
    expect(tools.cardLog().filter((card) => !card.startsWith('page_upload:'))).toEqual([]);
    const uploads = TASKS.filter((task) => task.steps.some((step) => step.op === 'upload')).length;
    expect(tools.cardLog().filter((card) => card.startsWith('page_upload:'))).toHaveLength(uploads);
  });
});
