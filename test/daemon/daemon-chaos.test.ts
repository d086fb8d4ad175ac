/**
 * The chaos soak's short form (the long one is `node bench/daemon-chaos.mjs --minutes N`): host, backend and daemon
 * killed at random (a fixed seed) during streaming turns and command approvals, then every guarantee checked.
 * TETHER_CHAOS_SEED=N replays another seed; TETHER_CHAOS_LOG=1 prints the progress and the report.
 */
import { describe, expect, it } from 'vitest';
import { runChaos } from '../support/daemon-chaos';

const SEED = Number(process.env['TETHER_CHAOS_SEED'] ?? 20261202);

describe('the daemon under chaos', () => {
  it('loses no acknowledged item, duplicates none, runs each approved command at most once and leaves no process', async () => {
    const log = process.env['TETHER_CHAOS_LOG'] ? (line: string) => console.log(line) : undefined;
    const report = await runChaos({ seed: SEED, steps: 16, log });
    log?.(JSON.stringify(report, null, 1));
    expect(report.problems).toEqual([]);
    expect(report.orphans).toEqual([]);
    // The run did what it is for: chaos of every kind, during turns and approvals.
    expect(report.events['host SIGKILL']).toBeGreaterThan(0);
    expect((report.events['daemon SIGTERM'] ?? 0) + (report.events['daemon SIGKILL'] ?? 0)).toBeGreaterThan(0);
    expect(report.events['turn stream']).toBeGreaterThan(0);
    expect(report.events['approval asked']).toBeGreaterThan(0);
    expect(report.itemsAcknowledged).toBeGreaterThan(0);
    // Memory: the longest-lived daemon does not grow by half over the run (generous: a loaded, shared machine).
    expect(report.rss.lastThirdMb).toBeLessThan(report.rss.firstThirdMb * 1.5 + 20);
  }, 240_000);
});
