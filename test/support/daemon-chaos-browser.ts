/**
 * A simulated browser of the daemon chaos soak (daemon-chaos.ts): a real `tether host` driven over stdio as the
 * service worker drives it (bridge/hello with its backend, initialize, `thread/resume` after the last item it has on
 * every reconnect and after `bridge/backend/exited`), and the ledger of what every browser saw, which the checks
 * compare with the journals afterwards.
 */
import { type HostProcess, type Msg, startHost } from '../host/host-process';

/** What the browsers saw and did, shared by all of them. */
export class ChaosLedger {
  /** Counts by kind: chaos done, turns started and ended, approvals asked and answered. */
  readonly events: Record<string, number> = {};
  /** Every violated guarantee, in words. */
  readonly problems: string[] = [];
  /** Items a browser saw completed (item/completed or a resume's finished items), by thread, by id. */
  readonly acked = new Map<string, Map<string, unknown>>();
  /** The last such item of each thread: where a reconnecting browser resumes. */
  readonly lastAcked = new Map<string, string>();
  /** Threads with a turn running, as far as the browsers know. */
  readonly busy = new Set<string>();
  /** Each command's fate as its tool item reported it, by marker file name. */
  readonly outcomes = new Map<string, 'ran' | 'declined'>();

  count(what: string): void {
    this.events[what] = (this.events[what] ?? 0) + 1;
  }

  /** Records an item a browser saw finished; a second sighting of one item is a duplicate. */
  ack(threadId: string, item: { id: string; type: string; content?: any }, via: string): void {
    const seen = this.acked.get(threadId) ?? new Map<string, unknown>();
    this.acked.set(threadId, seen);
    if (seen.has(item.id)) this.problems.push(`${threadId}: item ${item.id} reached the browser twice (${via})`);
    seen.set(item.id, item);
    this.lastAcked.set(threadId, item.id);
    this.outcome(item);
  }

  /** Records the fate of a command a finished tool item reports (its marker file named in its arguments). */
  outcome(item: { type: string; content?: any }): void {
    if (item.type !== 'toolCall') return;
    const marker = /marker-\d+/.exec(JSON.stringify(item.content?.arguments ?? ''))?.[0];
    if (marker && item.content?.status === 'success') this.outcomes.set(marker, 'ran');
    if (marker && item.content?.status === 'declined') this.outcomes.set(marker, 'declined');
  }
}

/** Whether a host process has ended. */
export const hostExited = (h: HostProcess): boolean => h.child.exitCode !== null || h.child.signalCode !== null;

/** One browser: its backend, its threads, and the host it has now (none while it is closed). */
export class ChaosBrowser {
  host: HostProcess | undefined;
  readonly threads: string[] = [];
  /** approval/request server requests not answered yet. */
  pending: Msg[] = [];
  private cursor = 0;
  /** Text of the agent messages this connection is streaming, by item id. */
  private readonly streams = new Map<string, string>();
  private backendBackAt: number | undefined;

  constructor(
    readonly backend: 'embedded' | 'child',
    private readonly ledger: ChaosLedger,
    private readonly start: { env: Record<string, string>; config: unknown },
    private readonly log: (line: string) => void,
    /** Every host started, for the cleanup. */
    private readonly started: HostProcess[],
  ) {}

  /** Between bridge/backend/exited and the new backend's initialize: the worker sends no turn then. */
  get backendRestarting(): boolean {
    return this.backendBackAt !== undefined;
  }

  /** Starts a host and does the worker's handshake; on failure the browser stays closed (counted, logged with `diagnose()`). */
  async connect(diagnose: () => string): Promise<void> {
    const h = startHost(this.start);
    this.started.push(h);
    this.host = h;
    this.cursor = 0;
    try {
      const hello = await h.request('bridge/hello', { backend: this.backend }, 30_000);
      if (hello.error) throw new Error(hello.error.message);
      if (hello.result.daemonUnavailable) this.ledger.problems.push(`bridge/hello: ${hello.result.daemonUnavailable}`);
      await this.handshake();
      this.ledger.count('reconnect');
    } catch (error) {
      this.ledger.count('reconnect failed');
      this.log(`reconnect of ${this.backend} failed: ${String(error).slice(0, 300)}; ${diagnose()}`);
      h.child.kill('SIGKILL');
      this.drop();
    }
  }

  /** The host is gone: what it sent is read, its pending requests forgotten. */
  drop(): void {
    this.pump();
    this.host = undefined;
    this.pending = [];
    this.streams.clear();
    this.backendBackAt = undefined;
  }

  /** Reads what the host sent since the last call. */
  pump(): void {
    const h = this.host;
    if (!h) return;
    for (; this.cursor < h.messages.length; this.cursor++) this.handle(h.messages[this.cursor]!);
  }

  /** Answers the oldest pending approval. */
  answer(decision: 'allow' | 'deny'): void {
    const asked = this.pending.shift();
    if (!asked || !this.host) return;
    this.host.send({ id: asked.id, result: { decision } });
    this.ledger.count(`approval ${decision}`);
  }

  /** After bridge/backend/exited and its restart delay: initialize the new backend and resume the threads on it. */
  async backendBack(): Promise<void> {
    if (!this.host || this.backendBackAt === undefined || Date.now() < this.backendBackAt) return;
    this.backendBackAt = undefined;
    this.streams.clear();
    this.pending = [];
    await this.handshake().then(
      () => this.ledger.count('backend resumed'),
      (error) => this.log(`after the backend restart: ${String(error).slice(0, 200)}`),
    );
  }

  /** initialize, then every thread resumed after the last item the browser has. */
  private async handshake(): Promise<void> {
    const h = this.host!;
    const init = await h.request('initialize', { clientInfo: { name: 'chaos', version: '1' } }, 30_000);
    if (init.error) throw new Error(`initialize: ${init.error.message}`);
    h.send({ method: 'initialized' });
    for (const t of this.threads) await this.resume(t);
  }

  /** thread/resume after the last item the browser has, as the panel does when it comes back. */
  private async resume(threadId: string): Promise<void> {
    const h = this.host!;
    this.pump();
    const after = this.ledger.lastAcked.get(threadId);
    const r = await h.request('thread/resume', after ? { threadId, afterItemId: after } : { threadId }, 30_000);
    if (r.error) {
      this.ledger.problems.push(`${threadId}: thread/resume after ${after} failed: ${r.error.message}`);
      return;
    }
    this.ledger.count('resume');
    for (const item of r.result.items) {
      // The streaming answer so far; the deltas after the request (read by pump) continue it.
      if (item.status === 'inProgress') {
        if (item.type === 'agentMessage') this.streams.set(item.id, item.content.text);
      } else this.ledger.ack(threadId, item, 'thread/resume');
    }
    if (r.result.activeTurn?.status === 'running') this.ledger.busy.add(threadId);
    else this.ledger.busy.delete(threadId);
    this.pump();
  }

  private handle(m: Msg): void {
    const p = m.params;
    switch (m.method) {
      case 'item/started':
        if (p.item.type === 'agentMessage') this.streams.set(p.item.id, '');
        return;
      case 'item/agentMessage/delta':
        if (this.streams.has(p.itemId)) this.streams.set(p.itemId, this.streams.get(p.itemId) + p.delta);
        return;
      case 'item/completed': {
        const shown = this.streams.get(p.item.id);
        const text = p.item.content?.text;
        if (shown !== undefined && p.item.type === 'agentMessage' && shown !== text)
          this.ledger.problems.push(
            `${p.threadId}: the browser streamed ${JSON.stringify(shown.slice(-40))} (${shown.length} chars) but item ${p.item.id} completed as ${JSON.stringify(String(text).slice(-40))} (${String(text).length})`,
          );
        this.streams.delete(p.item.id);
        this.ledger.ack(p.threadId, p.item, 'item/completed');
        return;
      }
      case 'turn/completed':
        this.ledger.busy.delete(p.threadId ?? p.turn.threadId);
        this.ledger.count(`turn ${p.turn.status}`);
        return;
      case 'approval/request':
        if (m.id !== undefined) this.pending.push(m);
        this.ledger.count('approval asked');
        return;
      case 'bridge/backend/exited':
        // The backend starts again after restartInMs and needs initialize, then each thread resumed (as the worker does).
        this.backendBackAt = Date.now() + (p.restartInMs ?? 0) + 100;
        return;
    }
  }
}
