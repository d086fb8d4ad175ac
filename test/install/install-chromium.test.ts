/**
 * What `tether install --user-data-dir` writes is what a real Chromium needs: the built extension's service worker
 * calls `connectNative('dev.tether.bridge')` in that profile and gets the host's answer to `initialize`.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '../..');
const EXTENSION = join(REPO, 'extension/dist/chrome');
const CHROMIUM = '/usr/bin/chromium';

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
  if (home) await rm(home, { recursive: true, force: true });
  context = undefined;
  home = undefined;
});

describe('a real Chromium and tether install', () => {
  it('connects to the host through the manifest and launcher install wrote for a throwaway profile', async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium`);
    if (!existsSync(join(EXTENSION, 'manifest.json'))) throw new Error('Build the extension first: npm run build');
    home = await mkdtemp(join(tmpdir(), 'tether-install-chromium-'));
    const profile = join(home, 'profile');
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data'), XDG_STATE_HOME: join(home, 'state') };
    delete env.TETHER_CONFIG;
    await promisify(execFile)(process.execPath, [join(REPO, 'native-host/bin/tether.mjs'), 'install', '--browser', 'chromium', '--user-data-dir', profile], {
      env,
      timeout: 110_000,
    });

    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: false,
      env: env as Record<string, string>,
      args: [
        '--headless=new',
        `--disable-extensions-except=${EXTENSION}`,
        `--load-extension=${EXTENSION}`,
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
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
          port.postMessage({ id: 'install-check', method: 'initialize', params: { clientInfo: { name: 'install-test', version: '0' } } });
        }),
    );

    expect(answer).toMatchObject({ id: 'install-check', result: { serverInfo: { name: 'tether-app-server' } } });
  });
});
