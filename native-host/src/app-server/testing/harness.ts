/** Test harness: an app-server engine in-process and typed clients on in-memory transports that record everything. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AppServerClient,
  createMemoryTransportPair,
  type ClientTool,
  type ServerNotificationMethod,
  type ServerNotificationParams,
} from '@tether/protocol';
import { createAppServer, type AppServerHandle } from '../index';
import type { AppServerConfig, IdKind } from '../options';

/** A received notification. */
export interface Note {
  method: string;
  params: unknown;
}

/** Records every notification a client receives and waits for ones matching a predicate (past ones included). */
export class Recorder {
  readonly notes: Note[] = [];
  private readonly waiters = new Set<{ test: (n: Note) => boolean; resolve: (n: Note) => void }>();

  constructor(client: AppServerClient) {
    client.on('*', (params, method) => {
      const note = { method, params };
      this.notes.push(note);
      for (const w of [...this.waiters]) {
        if (w.test(note)) {
          this.waiters.delete(w);
          w.resolve(note);
        }
      }
    });
  }

  /** The params of every notification `method` matching `test`, in order. */
  all<M extends ServerNotificationMethod>(
    method: M,
    test: (p: ServerNotificationParams<M>) => boolean = () => true,
  ): ServerNotificationParams<M>[] {
    return this.notes
      .filter((n) => n.method === method && test(n.params as ServerNotificationParams<M>))
      .map((n) => n.params as ServerNotificationParams<M>);
  }

  /** Resolves with the first notification `method` matching `test` (already received or still to come). */
  waitFor<M extends ServerNotificationMethod>(
    method: M,
    test: (p: ServerNotificationParams<M>) => boolean = () => true,
    timeoutMs = 15_000,
  ): Promise<ServerNotificationParams<M>> {
    const match = (n: Note): boolean => n.method === method && test(n.params as ServerNotificationParams<M>);
    const found = this.notes.find(match);
    if (found) return Promise.resolve(found.params as ServerNotificationParams<M>);
    return new Promise((resolve, reject) => {
      const waiter = {
        test: match,
        resolve: (n: Note) => {
          clearTimeout(timer);
          resolve(n.params as ServerNotificationParams<M>);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`no ${method} notification matching the test within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }
}

/** A connected, initialized client with its recorder. */
export interface TestClient {
  readonly client: AppServerClient;
  readonly rec: Recorder;
  close(): void;
}

/** Options of a test client. */
export interface ClientOptions {
  clientTools?: ClientTool[];
  optOut?: string[];
  /** Skip initialize (to test the gate). */
  skipInitialize?: boolean;
}

/** An engine with a temp data dir (or memory only) and a way to connect clients. */
export interface Harness {
  readonly server: AppServerHandle;
  readonly dataDir: string | null;
  /** Every line the server logged. */
  readonly logs: string[];
  connect(options?: ClientOptions): Promise<TestClient>;
  /** Closes the engine and removes the temp dir. */
  dispose(): Promise<void>;
}

/** Ids like the seed's (`thread_1`, `turn_1`, `evt_1`, `approval_1`) for literal transcripts. */
export function seedIds(): (kind: IdKind) => string {
  const counters = new Map<string, number>();
  const prefix: Record<IdKind, string> = {
    thread: 'thread',
    turn: 'turn',
    item: 'evt',
    approval: 'approval',
    call: 'call',
  };
  return (kind) => {
    const n = (counters.get(kind) ?? 0) + 1;
    counters.set(kind, n);
    return `${prefix[kind]}_${n}`;
  };
}

/** Creates a harness; `persistent` gives it a fresh temp data dir (default true). */
export function createHarness(
  opts: { persistent?: boolean; dataDir?: string; model?: string; config?: AppServerConfig } = {},
): Harness {
  const dataDir = opts.dataDir ?? (opts.persistent === false ? null : mkdtempSync(join(tmpdir(), 'tether-as-')));
  const ownsDir = opts.dataDir === undefined && dataDir !== null;
  const logs: string[] = [];
  const server = createAppServer({
    dataDir,
    ...(opts.model ? { model: opts.model } : {}),
    log: (line) => logs.push(line),
    config: { env: {}, ...opts.config },
  });
  const clients: TestClient[] = [];
  return {
    server,
    dataDir,
    logs,
    async connect(options = {}) {
      const [clientSide, serverSide] = createMemoryTransportPair();
      server.connect(serverSide);
      const client = new AppServerClient(clientSide);
      const rec = new Recorder(client);
      if (!options.skipInitialize) {
        await client.initialize({
          clientInfo: { name: 'test', version: '1' },
          capabilities: { optOutNotificationMethods: options.optOut ?? [], clientTools: options.clientTools ?? [] },
        });
      }
      const tc = { client, rec, close: () => client.connection.close() };
      clients.push(tc);
      return tc;
    },
    async dispose() {
      for (const c of clients) c.close();
      await server.close();
      if (ownsDir && dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Starts a turn and resolves with its final turn and the thread's items. */
export async function runTurn(tc: TestClient, threadId: string, text: string) {
  const { turn } = await tc.client.turnStart({ threadId, input: [{ text }] });
  const done = await tc.rec.waitFor('turn/completed', (p) => p.turn.id === turn.id);
  return { turn: done.turn, items: (await tc.client.threadRead({ threadId })).items };
}
