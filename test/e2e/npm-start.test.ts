import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hostMode } from '../../native-host/src/host/relay';
import { ARTIFACTS_DIR, REPO_ROOT } from '../support/browser';
import { tetherDaemons } from '../support/daemons';

/** Runs `node args` to the end, and the pids of the Tether daemons it started (tagged by launchBrowser with its pid). */
function run(args: string[], timeout: number): Promise<{ stdout: string; daemons: Set<number> }> {
  const daemons = new Set<number>();
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, args, { cwd: REPO_ROOT, timeout }, (error, stdout) => {
      clearInterval(watch);
      if (error) reject(error);
      else resolve({ stdout, daemons });
    });
    const tag = `TETHER_E2E_TAG=tether-e2e-${child.pid}-`;
    const watch = setInterval(() => {
      for (const pid of tetherDaemons()) {
        try {
          if (
            readFileSync(`/proc/${pid}/environ`, 'latin1')
              .split('\0')
              .some((v) => v.startsWith(tag))
          )
            daemons.add(pid);
        } catch {}
      }
    }, 200);
  });
}

describe('npm start -- --headless', () => {
  it('runs a scripted conversation with one approval, prints the transcript and saves screenshots', async () => {
    const started = Date.now();
    // 100 s at a load average of 20 on 2 cores: room for a loaded machine.
    const { stdout, daemons } = await run([join(REPO_ROOT, 'test/scripts/start.mjs'), '--headless'], 200_000);
    expect(stdout).toMatch(/\[approval\] page_read on http:\/\/127\.0\.0\.1:\d+/);
    expect(stdout).toContain('agent The page "Tether demo: tides of the North Sea"');
    expect(stdout).toContain('agent 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20');
    expect(existsSync(join(ARTIFACTS_DIR, 'start-side-panel.png'))).toBe(true);
    expect(existsSync(join(ARTIFACTS_DIR, 'start-popup.png'))).toBe(true);
    // The panel at Chrome's side panel width, light and dark, written by this run: a PNG's width is at byte 16.
    for (const scheme of ['light', 'dark']) {
      const file = join(ARTIFACTS_DIR, `start-side-panel-365-${scheme}.png`);
      expect(statSync(file).mtimeMs).toBeGreaterThanOrEqual(started - 1000);
      expect(readFileSync(file).readUInt32BE(16)).toBe(365);
    }
    // The conversation ran in a daemon of the run's own (never the user's), which it stopped at the end.
    expect(daemons.size).toBe(hostMode({ file: 'no config file' }).relay ? 1 : 0);
    expect(tetherDaemons().filter((pid) => daemons.has(pid))).toEqual([]);
  }, 210_000);
});
