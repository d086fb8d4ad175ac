import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS_DIR, REPO_ROOT } from '../support/browser';

const run = promisify(execFile);

describe('npm start -- --headless', () => {
  it('runs a scripted conversation with one approval, prints the transcript and saves screenshots', async () => {
    const started = Date.now();
    const { stdout } = await run(process.execPath, [join(REPO_ROOT, 'test/scripts/start.mjs'), '--headless'], {
      cwd: REPO_ROOT,
      timeout: 110_000,
    });
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
  });
});
