/**
 * The chaos soak's short form with a real browser (the long one is `node bench/daemon-chaos.mjs`): Chromium with the
 * extension and its side panels beside the two simulated browsers, on one daemon; its service worker stopped through
 * CDP and its host SIGKILLed, hosts, the command backend and the daemon killed at random (a fixed seed) during streamed
 * answers and command cards. Afterwards each panel's thread, reopened from History, shows every journaled item once.
 * TETHER_CHAOS_SEED=N replays another seed; TETHER_CHAOS_LOG=1 prints the progress and the report.
 */
import { describe, expect, it } from 'vitest';
import { runChaos } from '../support/daemon-chaos';

const SEED = Number(process.env['TETHER_CHAOS_SEED'] ?? 20261202);

describe('the daemon under chaos with a real browser', () => {
  it('loses no item a panel showed, shows each journaled item once when reopened, runs each command at most once and leaves no process', async () => {
    const log = process.env['TETHER_CHAOS_LOG'] ? (line: string) => console.log(line) : undefined;
    const report = await runChaos({ seed: SEED, steps: 24, chromium: true, log });
    log?.(JSON.stringify(report, null, 1));
    expect(report.problems).toEqual([]);
    expect(report.orphans).toEqual([]);
    // The run did what it is for: the worker stopped while a panel streamed or showed a card, commands asked there.
    expect(report.events['worker stop']).toBeGreaterThan(0);
    expect(report.events['worker stop during a panel turn']).toBeGreaterThan(0);
    expect(report.events['panel turn stream']).toBeGreaterThan(0);
    expect(report.events['panel turn command']).toBeGreaterThan(0);
    expect((report.events['panel approval allow'] ?? 0) + (report.events['panel approval deny'] ?? 0)).toBeGreaterThan(
      0,
    );
    expect(report.panel.itemsAcknowledged).toBeGreaterThan(0);
    expect(report.rss.lastThirdMb).toBeLessThan(report.rss.firstThirdMb * 1.5 + 20);
  }, 600_000);
});
