/**
 * What the side panel says about the daemon behind the host, in Chromium: a daemon of an older version that another
 * browser still uses keeps serving, and the panel says plainly that an update is pending; a daemon that cannot run
 * leaves the host serving in-process, and the panel says turns stop when the browser closes, and why.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type DaemonEnv, daemonEnv, waitUntil } from '../daemon/daemon-env';
import { HOST_ENTRY } from '../host/host-process';
import { launchBrowser, type LaunchedBrowser, REPO_ROOT, saveScreenshot } from '../support/browser';
import { tetherDaemons } from '../support/daemons';
import { startDemoServer, type DemoServer } from '../support/demo-server';
import { openConnectedPanel } from '../support/extension-pages';

const VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

let daemon: DaemonEnv | undefined;
let other: Socket | undefined;
let browser: LaunchedBrowser | undefined;
let demo: DemoServer | undefined;
afterAll(async () => {
  other?.destroy();
  await browser?.close();
  await demo?.close();
  await daemon?.dispose();
});

describe('the daemon in the side panel banner (Chromium)', () => {
  it('keeps serving while another browser uses it, and the panel says the update starts when the agent is idle', async () => {
    daemon = daemonEnv();
    const d = daemon;
    // A daemon that reports version 0.0.1, one browser connected to it: the host must not replace it.
    const old = spawn(process.execPath, [HOST_ENTRY, 'daemon', 'run'], {
      env: { ...process.env, ...d.env, TETHER_TEST_DAEMON_VERSION: '0.0.1' },
      stdio: 'ignore',
      detached: true,
    });
    old.unref();
    await waitUntil(() => /version\s+0\.0\.1/.test(d.tether('daemon', 'status').stdout), 'the old daemon', 60_000);
    const token = readFileSync(join(d.dir, 'run', 'daemon.token'), 'utf8');
    other = connect(join(d.dir, 'run', 'daemon.sock'));
    await new Promise((resolve) => other!.once('connect', resolve));
    other.write(`${JSON.stringify({ token, browser: 'other' })}\n`);
    await waitUntil(() => /clients\s+1/.test(d.tether('daemon', 'status').stdout), 'the other browser', 30_000);

    demo = await startDemoServer();
    browser = await launchBrowser({
      env: { TETHER_DAEMON: '1', TETHER_RUNTIME_DIR: d.env['TETHER_RUNTIME_DIR']! },
    });
    const { panel } = await openConnectedPanel(browser, demo.url('/'));
    const note = panel.locator('.banner[data-status="connected"] [data-update="pending"]');
    await note.waitFor({ timeout: 30_000 });
    expect(await note.textContent()).toBe(
      `Tether was updated to ${VERSION}. Version 0.0.1 keeps the agent running so no turn is cut short; ` +
        `${VERSION} starts when the agent is idle.`,
    );
    expect(d.pid()).toBe(old.pid);
    await saveScreenshot(panel, 'side-panel-daemon-update-pending');

    const options = await browser.openExtensionPage('src/options/index.html');
    const row = options.locator('.diagnostics tr', { hasText: 'Daemon version' });
    await expect.poll(() => row.locator('td').textContent(), { timeout: 15_000 }).toBe('0.0.1');
    await options.close();
  });

  it('says turns stop when the browser closes, and why, when the daemon cannot run and the host serves in-process', async () => {
    // A runtime folder that is a file: the daemon cannot make its socket there.
    const dir = mkdtempSync(join(tmpdir(), 'tether-no-daemon-'));
    const blocker = join(dir, 'not-a-folder');
    writeFileSync(blocker, '');
    demo ??= await startDemoServer();
    const before = tetherDaemons();
    const inProcess = await launchBrowser({ env: { TETHER_DAEMON: '1', TETHER_RUNTIME_DIR: blocker } });
    try {
      const { panel } = await openConnectedPanel(inProcess, demo.url('/'));
      const note = panel.locator('.banner[data-status="connected"] [data-daemon="unavailable"]');
      await note.waitFor({ timeout: 30_000 });
      expect(await note.textContent()).toMatch(
        /^Turns stop when the browser closes: the Tether daemon could not run \(.+\), so the browser's host runs the agent itself\. tether doctor says more\.$/,
      );
      expect(await panel.locator('[data-update]').count()).toBe(0);
      expect(tetherDaemons().filter((pid) => !before.includes(pid) && runtimeOf(pid) === blocker)).toEqual([]);
    } finally {
      await inProcess.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

function runtimeOf(pid: number): string | undefined {
  try {
    const line = readFileSync(`/proc/${pid}/environ`, 'latin1')
      .split('\0')
      .find((l) => l.startsWith('TETHER_RUNTIME_DIR='));
    return line?.slice('TETHER_RUNTIME_DIR='.length);
  } catch {
    return undefined;
  }
}
