/**
 * The real browser of the daemon chaos soak (daemon-chaos.ts): Chromium with the built extension, its host relaying to
 * the soak's daemon (same runtime folder), two tabs each with its side panel, served by the command backend. Turns are
 * typed into the panels (streamed answers, and commands whose approval card waits in the panel); its own chaos is the
 * extension's service worker stopped through the CDP target (as an extension reload or Chrome's idle timer stops it,
 * with the host it started) and its host SIGKILLed; the soak's daemon restarts and backend kills reach it too. Every
 * step records which items the panels show finished; afterwards each thread is reopened from History in a fresh panel
 * and compared with its journal: each item there once, and each item a panel showed finished there once.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { HOST_ARG, type LaunchedBrowser, launchBrowser } from './browser';
import type { ChaosLedger } from './daemon-chaos-browser';
import { duplicates, type JournalRecord } from './daemon-chaos-checks';
import { type DemoServer, startDemoServer } from './demo-server';
import { openSidePanel, openWebPage, reopenFromHistory, sendPrompt, waitConnected } from './extension-pages';

/** One item element of a panel's transcript: its id, its status (the class after its type) and its text. */
interface ShownItem {
  readonly id: string;
  readonly status: string;
  readonly type: string;
  readonly text: string;
}

/** The transcript of a panel: the thread it shows and its items in order (parts of one answer count once). */
async function transcriptOf(panel: Page): Promise<{ threadId: string; items: ShownItem[] }> {
  return panel.evaluate(() => {
    const list = document.querySelector('.transcript');
    const items = Array.from(list?.querySelectorAll<HTMLElement>(':scope > [data-item-id]') ?? []).map((el) => {
      const [, type = '', status = ''] = el.className.split(/\s+/);
      const body = el.querySelector('.body');
      return { id: el.dataset['itemId'] ?? '', type, status, text: (body ?? el).textContent ?? '' };
    });
    return { threadId: list?.getAttribute('data-thread-id') ?? '', items };
  });
}

/** What a panel shows, in a line: its banner, its error, and the end of its transcript (for the soak's log). */
async function describePanel(panel: Page): Promise<string> {
  const state = await panel
    .evaluate(() => ({
      banner: `${document.querySelector('.banner')?.getAttribute('data-status')}: ${document.querySelector('.banner')?.textContent}`,
      error: document.querySelector('.error-text')?.textContent ?? '',
      running: document.querySelector('.panel.running') !== null,
      last: Array.from(document.querySelectorAll('.transcript > *'))
        .slice(-4)
        .map((el) => `${el.className} ${(el as HTMLElement).dataset['itemId'] ?? ''}: ${el.textContent?.slice(0, 60)}`),
    }))
    .catch((error: unknown) => String(error));
  return JSON.stringify(state);
}

const FINISHED = new Set(['completed', 'failed', 'declined']);
/** Text as a panel and a journal both read it: Markdown's marks (the panel renders them) and spacing left out. */
const normal = (text: string): string => text.replace(/[`*_]/g, '').replace(/\s+/g, ' ').trim();

/** Chromium and its two panels, for one soak. */
export class ChromiumChaos {
  /** Threads the panels showed, each with the ids of the items a panel showed finished. */
  readonly seen = new Map<string, Set<string>>();
  private browser: LaunchedBrowser | undefined;
  private demo: DemoServer | undefined;
  private readonly panels: Page[] = [];

  constructor(
    /** The soak's daemon environment and folder: the browser's profile and host data live there. */
    private readonly env: Record<string, string>,
    private readonly dir: string,
    private readonly ledger: ChaosLedger,
    private readonly rand: () => number,
    private readonly log: (line: string) => void,
  ) {}

  /** Starts the demo site and Chromium, and opens two tabs with their panels, connected. */
  async start(): Promise<void> {
    this.demo = await startDemoServer();
    this.browser = await launchBrowser({ env: this.env, homeDir: this.dir, userDataDir: join(this.dir, 'profile') });
    for (const path of ['/', '/other']) {
      const { tabId } = await openWebPage(this.browser, this.demo.url(path));
      const panel = await openSidePanel(this.browser, tabId);
      // A cold daemon on a loaded machine: the extension's own handshake waits 20 s, and it retries.
      await waitConnected(panel, 120_000);
      this.panels.push(panel);
    }
  }

  /** The threads the panels showed. */
  get threads(): string[] {
    return [...this.seen.keys()];
  }

  /**
   * Types `prompt()` into an idle panel (connected, no turn running, no card), in a new thread when `newThread`, and
   * waits until the turn shows (an answer streaming or a card); false when no panel is idle (`prompt` not called).
   */
  async startTurn(prompt: () => string, newThread: boolean): Promise<boolean> {
    const order = this.panels.map((p) => ({ p, k: this.rand() })).sort((a, b) => a.k - b.k);
    for (const { p: panel } of order) {
      if (!(await this.idle(panel))) continue;
      if (newThread && (await transcriptOf(panel)).threadId !== '') {
        await panel.locator('button[data-action="new-thread"]').click({ timeout: 10_000 });
        await panel.locator('.transcript[data-thread-id=""]').waitFor({ state: 'attached', timeout: 30_000 });
      }
      const before = (await transcriptOf(panel)).items.filter((i) => i.type === 'agentMessage').length;
      const text = prompt();
      await sendPrompt(panel, text);
      const command = text.startsWith('/bash');
      this.ledger.count(command ? 'panel turn command' : 'panel turn stream');
      // The next chaos should find the turn under way: wait for its card, or for its answer to stream.
      const shown = command
        ? panel.locator('.approval[data-tool="bash"]').first()
        : panel.locator('.transcript > .item.agentMessage').nth(before);
      await shown.waitFor({ timeout: 60_000 }).catch(async () => {
        this.ledger.count('panel turn not shown in 60 s');
        this.log(`panel turn "${text}" not shown in 60 s; the panel: ${await describePanel(panel)}`);
      });
      await this.sample();
      return true;
    }
    return false;
  }

  /** Records what each panel shows finished; an item shown twice in one panel is a problem. */
  async sample(): Promise<void> {
    for (const panel of this.panels) {
      const { threadId, items } = await transcriptOf(panel).catch(() => ({ threadId: '', items: [] }));
      if (threadId === '') continue;
      const seen = this.seen.get(threadId) ?? new Set<string>();
      this.seen.set(threadId, seen);
      const twice = duplicates(items.map((i) => i.id));
      if (twice.length > 0) this.ledger.problems.push(`${threadId}: the panel shows items twice: ${twice.join(', ')}`);
      for (const item of items) if (FINISHED.has(item.status)) seen.add(item.id);
    }
  }

  /** Answers each card shown with probability `share` (allow four times in five); true when any card is shown. */
  async answerCards(share: number): Promise<boolean> {
    let any = false;
    for (const panel of this.panels) {
      const card = panel.locator('.approval').first();
      if ((await card.count()) === 0) continue;
      any = true;
      if (this.rand() >= share) continue;
      const choice = this.rand() < 0.8 ? 'allow' : 'deny';
      // A card can go between finding and clicking it (its turn was interrupted): that is no decision.
      const clicked = await card
        .locator(`button[data-choice="${choice}"]`)
        .click({ timeout: 5_000 })
        .then(() => true)
        .catch(() => false);
      if (clicked) {
        this.ledger.count(`panel approval ${choice}`);
        await card.waitFor({ state: 'detached', timeout: 30_000 }).catch(() => undefined);
      }
    }
    return any;
  }

  /** Connected, no turn running, no card waiting. */
  private async idle(panel: Page): Promise<boolean> {
    const connected = await panel.locator('.banner[data-status="connected"]').count();
    return connected > 0 && (await panel.locator('.panel.running, .approval').count()) === 0;
  }

  /** Whether a panel turn runs or a card waits now: the chaos that follows happens during one. */
  async busy(): Promise<boolean> {
    for (const panel of this.panels)
      if (
        (await panel
          .locator('.panel.running, .approval')
          .count()
          .catch(() => 0)) > 0
      )
        return true;
    return false;
  }

  /** Stops the extension's service worker through CDP; the worker's host goes with it, and the next event restarts it. */
  async stopWorker(): Promise<void> {
    await this.browser!.stopServiceWorkers();
    this.ledger.count('worker stop');
  }

  /** SIGKILLs the hosts the browser started; false when none runs (the worker is reconnecting). */
  async killHost(): Promise<boolean> {
    const hosts = await this.browser!.findProcesses(HOST_ARG);
    for (const pid of hosts) process.kill(pid, 'SIGKILL');
    if (hosts.length > 0) this.ledger.count('browser host SIGKILL');
    return hosts.length > 0;
  }

  /** Waits until each panel is connected again (after the chaos), then answers every card it shows. */
  async settle(): Promise<void> {
    for (const panel of this.panels) await waitConnected(panel, 120_000);
    await this.answerCards(1);
  }

  /**
   * Reopens each thread from History in a fresh panel and compares it with `journal(threadId)`: every item journaled
   * is shown once, every item a panel showed finished is journaled and shown once, answers read as journaled.
   */
  async verify(journal: (threadId: string) => JournalRecord[]): Promise<string[]> {
    const problems: string[] = [];
    const { tabId } = await openWebPage(this.browser!, this.demo!.url('/'));
    const panel = await openSidePanel(this.browser!, tabId);
    for (const [threadId, seen] of this.seen) {
      const journaled = new Map<string, NonNullable<JournalRecord['item']>>();
      for (const r of journal(threadId)) if (r.type === 'item' && r.item) journaled.set(r.item.id, r.item);
      await reopenFromHistory(panel, threadId);
      // Earlier pages first, then wait for the transcript to hold what the journal holds (or give up after 30 s).
      const deadline = Date.now() + 30_000;
      let shown = await transcriptOf(panel);
      while (Date.now() < deadline) {
        const older = panel.locator('button[data-action="older"]');
        if ((await older.count()) > 0) await older.click({ timeout: 5_000 }).catch(() => undefined);
        shown = await transcriptOf(panel);
        const ids = new Set(shown.items.map((i) => i.id));
        if ([...journaled.keys(), ...seen].every((id) => ids.has(id))) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      const count = (id: string): number => shown.items.filter((i) => i.id === id).length;
      const twice = duplicates(shown.items.map((i) => i.id));
      if (twice.length > 0) problems.push(`${threadId}: the reopened panel shows items twice: ${twice.join(', ')}`);
      for (const id of seen) {
        if (!journaled.has(id)) problems.push(`${threadId}: item ${id} shown finished in a panel is not journaled`);
        if (count(id) !== 1)
          problems.push(`${threadId}: item ${id} shown finished is in the reopened panel ${count(id)} times`);
      }
      for (const [id, item] of journaled) {
        if (count(id) === 0) problems.push(`${threadId}: journaled ${item.type} ${id} is not in the reopened panel`);
        const text = item.type === 'agentMessage' ? item.content?.text : undefined;
        const inPanel = shown.items.find((i) => i.id === id);
        if (typeof text === 'string' && inPanel && normal(inPanel.text) !== normal(text))
          problems.push(
            `${threadId}: answer ${id} reads ${JSON.stringify(normal(inPanel.text).slice(-40))} in the panel, ${JSON.stringify(normal(text).slice(-40))} journaled`,
          );
      }
    }
    return problems;
  }

  /** Closes the browser (its daemon is the soak's to stop) and the demo site. */
  async close(): Promise<void> {
    await this.browser?.close().catch((error) => this.log(`closing Chromium: ${String(error)}`));
    await this.demo?.close();
  }
}
