/**
 * What `tether install --user-data-dir` writes is what a real Chromium needs: the built extension's service worker
 * calls `connectNative('dev.tether.bridge')` in that profile and gets the host's answer to `initialize`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { CHROMIUM_PATH, chromiumArgs, registerHost, requireChromiumAndExtension } from '../support/browser';
import { stopDaemonIn } from '../support/daemons';

/** The part of the extension API the worker-side check uses (the function runs in the service worker). */
declare const chrome: {
  runtime: {
    connectNative(name: string): {
      postMessage(message: unknown): void;
      disconnect(): void;
      onMessage: { addListener(listener: (message: unknown) => void): void };
      onDisconnect: { addListener(listener: () => void): void };
    };
    lastError?: { message?: string };
  };
};

let home: string | undefined;
let context: BrowserContext | undefined;

afterEach(async () => {
  await context?.close();
  // The daemon the browser's host started in the test's runtime folder goes with it.
  if (home) await stopDaemonIn(join(home, 'run'));
  if (home) await rm(home, { recursive: true, force: true });
  context = undefined;
  home = undefined;
});

describe('a real Chromium and tether install', () => {
  it('connects to the host through the manifest and launcher install wrote for a throwaway profile', async () => {
    requireChromiumAndExtension();
    home = await mkdtemp(join(tmpdir(), 'tether-install-chromium-'));
    const profile = join(home, 'profile');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      XDG_CONFIG_HOME: join(home, 'config'),
      XDG_DATA_HOME: join(home, 'data'),
      XDG_STATE_HOME: join(home, 'state'),
      TETHER_RUNTIME_DIR: join(home, 'run'),
    };
    delete env.TETHER_CONFIG;
    await registerHost(profile, env, 110_000);

    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: false,
      env: env as Record<string, string>,
      args: chromiumArgs(),
    });
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    const answer = await worker.evaluate(
      () =>
        new Promise<unknown>((resolve) => {
          const port = chrome.runtime.connectNative('dev.tether.bridge');
          port.onMessage.addListener((message: unknown) => {
            resolve(message);
            port.disconnect();
          });
          port.onDisconnect.addListener(() => resolve({ disconnected: chrome.runtime.lastError?.message }));
          port.postMessage({
            id: 'install-check',
            method: 'initialize',
            params: { clientInfo: { name: 'install-test', version: '0' } },
          });
        }),
    );

    expect(answer).toMatchObject({ id: 'install-check', result: { serverInfo: { name: 'tether-app-server' } } });
  });
});
