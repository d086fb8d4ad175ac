/**
 * The daemon chaos soak, shared by `bench/daemon-chaos.mjs` (minutes) and its short runs with a fixed seed,
 * test/daemon/daemon-chaos.test.ts and (with Chromium) test/e2e/daemon-chaos-browser.test.ts. Two simulated
 * browsers, each a real `tether host` relaying to one daemon in a runtime folder of its own: one served by the
 * embedded backend, one by a command backend (a `tether app-server` child of the daemon). With `chromium`, a real
 * Chromium with the extension takes part too (daemon-chaos-chromium.ts): turns typed into its side panels, its
 * service worker stopped through CDP and its host SIGKILLed. Between streaming turns and command approvals, chosen at
 * random from the seed: SIGKILL or a normal close of a host, SIGKILL of the command backend, SIGTERM and SIGKILL of
 * the daemon. Afterwards the checks of daemon-chaos-checks.ts, against the ledger of what the browsers
 * (daemon-chaos-browser.ts) saw, and each panel's thread reopened against its journal.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type DaemonEnv, daemonEnv, waitUntil } from '../daemon/daemon-env';
import { HOST_ENTRY, type HostProcess, isAlive } from '../host/host-process';
import { ChaosBrowser, ChaosLedger, hostExited as exited } from './daemon-chaos-browser';
import { ChromiumChaos } from './daemon-chaos-chromium';
import {
  checkMarkers,
  checkThread,
  orphansAfter,
  type RssTrend,
  readAllItems,
  readJournal,
  rssMb,
  rssTrend,
} from './daemon-chaos-checks';

/** How long and from which seed. */
export interface ChaosOptions {
  readonly seed: number;
  /** How long the chaos lasts; or, with `steps`, how many steps it takes (whatever the machine's speed). */
  readonly durationMs?: number;
  readonly steps?: number;
  /**
   * The last this many ms of `durationMs` go on without daemon restarts, so one daemon lives long enough for its memory
   * to tell whether it grows (a restarted daemon starts with fresh memory). Default 0.
   */
  readonly calmDaemonMs?: number;
  /** Progress lines (default: none). */
  readonly log?: (line: string) => void;
  /** A real Chromium with the extension takes part, its panels served by the command backend (default: none). */
  readonly chromium?: boolean;
}

/** What happened and what the checks found. */
export interface ChaosReport {
  readonly seed: number;
  /** The whole run, drain and checks included. */
  readonly durationMs: number;
  readonly steps: number;
  /** Chaos and traffic by kind: host SIGKILL, daemon SIGTERM, turns started, approvals answered, ... */
  readonly events: Record<string, number>;
  readonly threads: number;
  readonly itemsAcknowledged: number;
  /** Chromium's threads and the items its panels showed finished (zero without `chromium`). */
  readonly panel: { readonly threads: number; readonly itemsAcknowledged: number };
  /** Commands asked for, reported run or declined by the tool item clients saw, and marker files written. */
  readonly commands: {
    readonly asked: number;
    readonly ran: number;
    readonly declined: number;
    readonly written: number;
  };
  readonly rss: RssTrend;
  readonly orphans: string[];
  /** Every violated guarantee, in words; empty when the soak passed. */
  readonly problems: string[];
}

/** mulberry32: a small seeded generator, so a failing seed replays the same choices. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs the soak; resolves with its report (problems listed, never thrown) once everything it started is gone. */
export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const rand = random(options.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const log = options.log ?? (() => undefined);
  const tag = `TETHER_CHAOS=${options.seed}-${process.pid}-${Date.now()}`;
  const d: DaemonEnv = daemonEnv({ TETHER_CHAOS: tag.slice('TETHER_CHAOS='.length) });
  const backendData = join(d.dir, 'backend-data');
  const markerDir = join(d.dir, 'markers');
  mkdirSync(markerDir, { recursive: true });
  const config = {
    ...(options.chromium ? { defaultBackend: 'child' } : {}),
    backends: {
      child: {
        kind: 'command',
        argv: [process.execPath, HOST_ENTRY, 'app-server', '--listen', 'stdio', '--data-dir', backendData],
      },
    },
  };
  // Where every host and daemon finds it, whoever starts the daemon (the browser's host names no config file).
  mkdirSync(join(d.dir, 'config', 'tether'), { recursive: true });
  writeFileSync(join(d.dir, 'config', 'tether', 'config.json'), JSON.stringify(config));
  const journalOf = (browser: { backend: string }, threadId: string): string =>
    browser.backend === 'child'
      ? join(backendData, 'threads', `${threadId}.jsonl`)
      : join(d.dir, 'data', 'tether', 'threads', `${threadId}.jsonl`);
  const daemonLog = (): string => {
    try {
      return `daemon log: ${readFileSync(join(d.dir, 'state', 'tether', 'daemon.log'), 'utf8').slice(-1500)}`;
    } catch {
      return 'no daemon log';
    }
  };

  /** What a daemon that would not stop left: its log's last words, and the MCP sockets of connections never closed. */
  const leftovers = (): string => {
    const stopped = /stopping: .*|stopped in .*/g;
    const said = (daemonLog().match(stopped) ?? []).slice(-3).join('; ');
    const mine = `host-${d.pid()}-`;
    const sockets = readdirSync(join(d.dir, 'run')).filter((n) => n.startsWith(mine));
    return `its log: ${said}; its connections' MCP sockets still there: ${sockets.join(', ') || 'none'}`;
  };

  const ledger = new ChaosLedger();
  const { problems } = ledger;
  const count = (what: string): void => ledger.count(what);
  const allHosts: HostProcess[] = [];
  const rss: Array<{ pid: number; mb: number }> = [];
  const browsers = (['embedded', 'child'] as const).map(
    (backend) => new ChaosBrowser(backend, ledger, { env: d.env, config }, log, allHosts),
  );
  let markers = 0;
  let written = 0;
  const chromium = options.chromium ? new ChromiumChaos(d.env, d.dir, ledger, rand, log) : undefined;

  const turnText = (inPanel: boolean): string =>
    drawTurn(inPanel) === 'stream'
      ? // A panel's answer lasts seconds (3 messages, 20 ms a number), so the chaos after it finds it streaming.
        inPanel
        ? `/stream ${200 + Math.floor(rand() * 400)} 20 3`
        : `/stream ${100 + Math.floor(rand() * 500)} 4`
      : `/bash sleep 0.3; echo ran >> ${join(markerDir, `marker-${++markers}`)}`;

  const startTurn = async (browser: ChaosBrowser): Promise<void> => {
    const h = browser.host!;
    if (browser.threads.length < 2 || (browser.threads.length < 4 && rand() < 0.1)) {
      const t = await h.request('thread/start', { title: `chaos ${browser.threads.length}` }, 30_000);
      if (t.error) {
        count('thread/start refused');
        return log(`thread/start refused: ${t.error.message}`);
      }
      browser.threads.push(t.result.thread.id);
    }
    // Mostly an idle thread; a busy one sometimes, whose turn/start must be refused while its turn runs.
    const idle = browser.threads.filter((t) => !ledger.busy.has(t));
    const threadId = pick(idle.length > 0 && rand() < 0.9 ? idle : browser.threads);
    const text = turnText(false);
    const r = await h.request('turn/start', { threadId, input: [{ text }] }, 30_000);
    if (r.error) {
      count('turn refused');
      return log(`turn/start refused: ${r.error.message}`);
    }
    ledger.busy.add(threadId);
    count(text.startsWith('/bash') ? 'turn command' : 'turn stream');
  };

  const stopHost = async (browser: ChaosBrowser, how: 'host SIGKILL' | 'host closed'): Promise<void> => {
    const h = browser.host!;
    if (how === 'host SIGKILL') h.child.kill('SIGKILL');
    else h.closeInput();
    count(how);
    await Promise.race([h.exited, sleep(5000)]);
    if (!exited(h)) problems.push('a host went on for 5 s after its browser closed its input');
    h.child.kill('SIGKILL');
    browser.drop();
  };

  const stopDaemon = async (signal: 'SIGTERM' | 'SIGKILL'): Promise<boolean> => {
    const pid = d.pid();
    if (pid === undefined || !isAlive(pid)) return false;
    process.kill(pid, signal);
    count(`daemon ${signal}`);
    await waitUntil(() => !isAlive(pid), `the daemon to end on ${signal}`, 30_000);
    for (const browser of browsers) {
      const h = browser.host;
      if (!h) continue;
      await Promise.race([h.exited, sleep(5000)]);
      if (!exited(h)) problems.push(`a relay outlived its daemon's ${signal} by 5 s`);
      h.child.kill('SIGKILL');
      browser.drop();
    }
    return true;
  };

  /** SIGKILLs the command backend (the app-server child of the daemon that uses `backendData`), if one runs. */
  const killBackend = (): boolean => {
    const node = readdirSync('/proc').find((n) => {
      try {
        const argv = readFileSync(`/proc/${n}/cmdline`, 'latin1');
        return /^\d+$/.test(n) && argv.includes(backendData) && argv.includes('app-server');
      } catch {
        return false;
      }
    });
    if (node === undefined) return false;
    process.kill(Number(node), 'SIGKILL');
    count('backend SIGKILL');
    return true;
  };

  // The chaos of each step comes from a shuffled deck, so every kind happens within a deck's length of steps.
  const DECK = [
    ...Array<string>(3).fill('host SIGKILL'),
    'host closed',
    'backend SIGKILL',
    'backend SIGKILL',
    'daemon SIGTERM',
    'daemon SIGKILL',
    ...Array<string>(4).fill('none'),
    ...(chromium ? ['worker stop', 'worker stop', 'browser host SIGKILL'] : []),
  ];
  let deck: string[] = [];
  let calmFrom = Number.POSITIVE_INFINITY;
  const draw = (): string => {
    if (deck.length === 0)
      deck = DECK.map((c) => ({ c, k: rand() }))
        .sort((a, b) => a.k - b.k)
        .map((x) => x.c);
    const card = deck.pop()!;
    return card.startsWith('daemon') && Date.now() >= calmFrom ? 'none' : card;
  };
  // Two streaming turns for each command turn (one for one in the panels, whose cards the chaos often ends), in an
  // order the seed shuffles.
  const turns = { simulated: [] as string[], panel: [] as string[] };
  const drawTurn = (inPanel: boolean): string => {
    const left = inPanel ? turns.panel : turns.simulated;
    if (left.length === 0)
      left.push(...(inPanel ? ['stream', 'command'] : ['stream', 'stream', 'command']).sort(() => rand() - 0.5));
    return left.pop()!;
  };

  const step = async (): Promise<void> => {
    for (const b of browsers) if (b.host && exited(b.host)) b.drop();
    for (const b of browsers) if (!b.host && rand() < 0.6) await b.connect(daemonLog);
    for (const b of browsers) {
      b.pump();
      await b.backendBack();
      // Half the approvals are answered at once, the rest left pending across the chaos.
      while (b.pending.length > 0 && rand() < 0.5) b.answer(rand() < 0.8 ? 'allow' : 'deny');
    }
    await chromium?.answerCards(0.5);
    const live = browsers.filter((b) => b.host !== undefined);
    const ready = live.filter((b) => !b.backendRestarting);
    if (chromium && rand() < 0.5) {
      if (!(await chromium.startTurn(() => turnText(true), rand() < 0.2))) count('panel busy');
    } else if (ready.length > 0 && rand() < 0.6) await startTurn(pick(ready));
    const chaos = draw();
    if (chaos !== 'none' && (await chromium?.busy())) count(`${chaos} during a panel turn`);
    const target = live.length > 0 ? pick(live) : undefined;
    let done = true;
    if (chaos === 'host SIGKILL' || chaos === 'host closed') {
      done = target?.host !== undefined;
      if (target?.host) await stopHost(target, chaos);
    } else if (chaos === 'backend SIGKILL') done = killBackend();
    else if (chaos === 'daemon SIGTERM') done = await stopDaemon('SIGTERM');
    else if (chaos === 'daemon SIGKILL') done = await stopDaemon('SIGKILL');
    else if (chaos === 'worker stop') await chromium?.stopWorker();
    else if (chaos === 'browser host SIGKILL') done = (await chromium?.killHost()) ?? false;
    await chromium?.sample();
    // Nothing to kill now (no browser, no daemon, no backend yet): the card goes back to the bottom of the deck.
    if (!done) deck.unshift(chaos);
    const pid = d.pid();
    const mb = rssMb(pid);
    if (pid !== undefined && mb !== undefined) rss.push({ pid, mb });
  };

  let steps = 0;
  const runStarted = Date.now();
  try {
    await chromium?.start();
    const end = runStarted + (options.durationMs ?? Number.POSITIVE_INFINITY);
    calmFrom = end - (options.calmDaemonMs ?? 0);
    while (Date.now() < end && steps < (options.steps ?? Number.POSITIVE_INFINITY)) {
      steps++;
      await step().catch((error) => {
        count('step failed');
        log(`step ${steps}: ${String(error).slice(0, 300)}`);
      });
      await sleep(50 + rand() * 200);
      if (steps % 10 === 0)
        log(`step ${steps} at ${Math.round((Date.now() - runStarted) / 1000)} s: ${JSON.stringify(ledger.events)}`);
    }
    log(`chaos stopped after ${steps} steps; draining`);
    await drain();
    log('drained; verifying');
    await verify();
  } catch (error) {
    problems.push(`the soak itself failed: ${String(error)}`);
  } finally {
    await chromium?.close();
    for (const h of allHosts) if (!exited(h)) h.child.kill('SIGKILL');
    await Promise.all(allHosts.map((h) => h.exited));
    await d.dispose().catch((error) => problems.push(`${String(error)}; ${leftovers()}`));
    for (const h of allHosts) rmSync(h.dir, { recursive: true, force: true });
  }
  const orphans = await orphansAfter(tag);
  if (orphans.length > 0) problems.push(`processes left behind: ${orphans.join('; ')}`);
  const outcomes = [...ledger.outcomes.values()];
  return {
    seed: options.seed,
    durationMs: Date.now() - runStarted,
    steps,
    events: ledger.events,
    threads: browsers.reduce((n, b) => n + b.threads.length, 0),
    itemsAcknowledged: [...ledger.acked.values()].reduce((n, m) => n + m.size, 0),
    panel: {
      threads: chromium?.threads.length ?? 0,
      itemsAcknowledged: [...(chromium?.seen.values() ?? [])].reduce((n, s) => n + s.size, 0),
    },
    commands: {
      asked: markers,
      ran: outcomes.filter((o) => o === 'ran').length,
      declined: outcomes.filter((o) => o === 'declined').length,
      written,
    },
    rss: rssTrend(rss),
    orphans,
    problems,
  };

  /** Every browser back, every approval answered, until no turn runs (or 90 s passed: a problem). */
  async function drain(): Promise<void> {
    const deadline = Date.now() + 90_000;
    for (;;) {
      for (const b of browsers) if (b.host && exited(b.host)) b.drop();
      for (const b of browsers) if (!b.host) await b.connect(daemonLog);
      for (const b of browsers) {
        b.pump();
        await b.backendBack();
        while (b.pending.length > 0) b.answer(rand() < 0.8 ? 'allow' : 'deny');
      }
      await chromium?.settle();
      const status = d.tether('daemon', 'status').stdout;
      const panelBusy = (await chromium?.busy()) ?? false;
      if (ledger.busy.size === 0 && !panelBusy && /running turns\s+0/.test(status)) return await chromium?.sample();
      if (Date.now() > deadline) {
        const known = [...ledger.busy].join(', ') || 'none the browsers know of';
        problems.push(`turns still running 90 s after the chaos stopped: ${known}; ${status.replace(/\s+/g, ' ')}`);
        return;
      }
      await sleep(500);
    }
  }

  /** A fresh browser per backend reads every thread; journals and markers are checked against the ledger. */
  async function verify(): Promise<void> {
    for (const browser of browsers) {
      browser.host?.child.kill('SIGKILL');
      browser.drop();
      await browser.connect(daemonLog);
      const h = browser.host;
      if (!h) {
        problems.push(`no browser of the ${browser.backend} backend could connect for the final read`);
        continue;
      }
      for (const threadId of browser.threads) {
        const read = await readAllItems(h, threadId);
        const journal = readJournal(journalOf(browser, threadId));
        const found = checkThread(threadId, journal, read, ledger.acked.get(threadId) ?? new Map());
        problems.push(...found.map((p) => `${browser.backend} backend: ${p}`));
      }
    }
    if (chromium) await verifyPanels(chromium);
    const commands = checkMarkers(markerDir, ledger.outcomes);
    problems.push(...commands.problems);
    written = commands.ran;
  }

  /** Chromium's threads: read by a fresh client of their backend and reopened in a fresh panel, against the journal. */
  async function verifyPanels(c: ChromiumChaos): Promise<void> {
    const reader = browsers.find((b) => b.backend === 'child')?.host;
    const journal = (threadId: string) => readJournal(journalOf({ backend: 'child' }, threadId));
    for (const [threadId, seen] of c.seen) {
      for (const r of journal(threadId)) if (r.item) ledger.outcome(r.item);
      if (!reader) continue;
      const read = await readAllItems(reader, threadId);
      const acked = new Map([...seen].map((id) => [id, true]));
      problems.push(...checkThread(threadId, journal(threadId), read, acked).map((p) => `panel thread: ${p}`));
    }
    problems.push(...(await c.verify(journal)));
  }
}
