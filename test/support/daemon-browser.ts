/**
 * Chromium whose host relays to a daemon of the test's own (issue 21), for tests that kill or close the browser while
 * a turn runs and start it again: every browser of a test gets the same profile and runtime folder, so the one it
 * starts again finds the daemon, and the thread, where the first left them. Also what such tests read and check: the
 * thread journal the daemon writes, the panel reopened on a thread from History, and that no browser, host or daemon
 * process of the test is left behind.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { type DaemonEnv, daemonEnv, waitUntil } from '../daemon/daemon-env';
import { HOST_ARG, type LaunchedBrowser, launchBrowser } from './browser';
import { type JournalRecord, readJournal } from './daemon-chaos-checks';
import { type DemoServer, startDemoServer } from './demo-server';
import { reopenFromHistory } from './extension-pages';

export type { JournalRecord };
export { HOST_ARG, reopenFromHistory };

/** A test's daemon and the browsers it starts with one profile. */
export interface DaemonBrowsers {
  readonly daemon: DaemonEnv;
  /** Starts Chromium with the test's profile, its host relaying to the test's daemon. */
  launch(): Promise<LaunchedBrowser>;
  /**
   * The records of a thread's journal the daemon has written so far (a line being written is left out): the embedded
   * backend's, or with `agent` the one the daemon keeps for that ACP agent backend.
   */
  journal(threadId: string, agent?: string): JournalRecord[];
  /** `tether daemon status`'s count of `what` (clients, running turns). */
  count(what: 'clients' | 'running turns'): number | undefined;
  /** Closes the browsers still open, stops the daemon, and fails when a process of either is left. */
  dispose(): Promise<void>;
}

/**
 * Creates the test's folders, with `config(folder)` as the user's Tether config file when given (`folder`, inside
 * the test's, is there for a backend to work in); its daemon is started at once, so the first host finds it running.
 */
export function daemonBrowsers(config?: (folder: string) => unknown): DaemonBrowsers {
  const daemon = daemonEnv();
  if (config !== undefined) {
    const folder = join(daemon.dir, 'work');
    mkdirSync(folder, { recursive: true });
    mkdirSync(join(daemon.dir, 'config', 'tether'), { recursive: true });
    writeFileSync(join(daemon.dir, 'config', 'tether', 'config.json'), JSON.stringify(config(folder)));
  }
  // Started first: a host that cannot reach a daemon within a few seconds (a cold start under load) serves
  // in-process, and then its turns die with it.
  const started = daemon.tether('daemon', 'restart');
  if (started.status !== 0) throw new Error(`tether daemon restart failed: ${started.stderr}`);
  const browsers: LaunchedBrowser[] = [];
  const count = (what: string): number | undefined => {
    const line = daemon.tether('daemon', 'status').stdout.match(new RegExp(`^\\s*${what}\\s+(\\d+)`, 'm'));
    return line ? Number(line[1]) : undefined;
  };
  return {
    daemon,
    count,
    async launch() {
      const browser = await launchBrowser({
        env: daemon.env,
        homeDir: daemon.dir,
        userDataDir: join(daemon.dir, 'profile'),
      });
      browsers.push(browser);
      return browser;
    },
    journal(threadId, agent) {
      const data = join(daemon.dir, 'data', 'tether', ...(agent === undefined ? [] : ['agents', agent]));
      return readJournal(join(data, 'threads', `${threadId}.jsonl`));
    },
    async dispose() {
      for (const browser of browsers) await browser.close().catch(() => undefined);
      const left = (await Promise.all(browsers.map((b) => b.findProcesses('')))).flat();
      for (const pid of left) process.kill(pid, 'SIGKILL');
      // Stops the daemon and fails when it is still running after `tether daemon stop`.
      await daemon.dispose();
      expect(left, 'processes of the test browsers (browser, host) left running').toEqual([]);
    },
  };
}

/** A test file's demo site and the rig of its running test, disposed after each test. */
export interface DaemonBrowserSuite {
  /** The demo site the panels open (started before the file's first test). */
  readonly demo: DemoServer;
  /** The rig of the running test. */
  readonly current: DaemonBrowsers;
  /** Makes the running test's rig (see daemonBrowsers); it is disposed when the test ends, passed or not. */
  start(config?: (folder: string) => unknown): DaemonBrowsers;
}

/** Registers the file's hooks: the demo site for all its tests, and each test's rig disposed after it. */
export function useDaemonBrowsers(): DaemonBrowserSuite {
  let demo: DemoServer | undefined;
  let rig: DaemonBrowsers | undefined;
  beforeAll(async () => {
    demo = await startDemoServer();
  });
  afterEach(async () => {
    await rig?.dispose();
    rig = undefined;
  });
  afterAll(async () => {
    await demo?.close();
  });
  return {
    get demo() {
      if (!demo) throw new Error('the demo site starts before the first test');
      return demo;
    },
    get current() {
      if (!rig) throw new Error('no rig: call start() in the test first');
      return rig;
    },
    start(config) {
      rig = daemonBrowsers(config);
      return rig;
    },
  };
}

/** Waits until no process a browser started (its helpers, the host) is left, after a kill or a close. */
export async function browserGone(browser: LaunchedBrowser): Promise<void> {
  await expect.poll(() => browser.findProcesses(''), { timeout: 60_000 }).toEqual([]);
}

/** Waits until the daemon counts `n` of `what`. */
export async function daemonCounts(
  rig: DaemonBrowsers,
  what: 'clients' | 'running turns',
  n: number,
  timeoutMs = 30_000,
): Promise<void> {
  await waitUntil(() => rig.count(what) === n, `the daemon to count ${n} ${what}`, timeoutMs);
}

/** The agent messages of a thread's journal, each as it was journaled (completed). */
export function journaledAnswers(
  rig: DaemonBrowsers,
  threadId: string,
  agent?: string,
): Array<{ id: string; text: string }> {
  return rig
    .journal(threadId, agent)
    .flatMap((r) => (r.type === 'item' && r.item?.type === 'agentMessage' ? [r.item] : []))
    .map((item) => ({ id: item.id, text: textOf(item.content) }));
}

/** How a turn of a thread's journal ended (undefined while it runs). */
export function journaledTurnEnd(rig: DaemonBrowsers, threadId: string, agent?: string): string | undefined {
  const ends = rig.journal(threadId, agent).filter((r) => r.type === 'turn' && r.turn?.status !== 'running');
  return ends.at(-1)?.turn?.status;
}

/** The panel's agent messages, in order: their item ids, whether each is finished, and their text. */
export async function panelAnswers(panel: Page): Promise<Array<{ id: string; done: boolean; text: string }>> {
  return panel.locator('.transcript .item.agentMessage').evaluateAll((els) =>
    els.map((el) => ({
      id: el.getAttribute('data-item-id') ?? '',
      done: el.classList.contains('completed'),
      text: el.querySelector('.body')?.textContent ?? '',
    })),
  );
}

/** The numbers a `/stream` answer shows across its messages, in order. */
export function numbersIn(texts: readonly string[]): number[] {
  return texts.flatMap((text) => text.split(/\s+/).filter(Boolean).map(Number));
}

/** 1..n. */
export function oneTo(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i + 1);
}

function textOf(content: unknown): string {
  return typeof content === 'object' && content !== null && 'text' in content && typeof content.text === 'string'
    ? content.text
    : '';
}
