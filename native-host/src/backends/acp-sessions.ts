/**
 * An ACP agent's sessions as this agent process knows them: which are live (created or loaded since it started), which
 * are being loaded, and how a thread gets a session for its next turn, reloaded (`session/load`) or new when the agent
 * cannot reload it. While a session loads, its replayed updates are history: they rebuild the journal of a thread it
 * never saw, or are dropped when the journal already has them; they never reach a turn.
 */
import { type Item, type RequestContext, RpcError } from '@tether/protocol';
import type { AcpMcpServer } from './acp-mcp';
import { agentErrorText } from './acp-map';
import type { AcpModels } from './acp-models';
import { ReplayWatch } from './acp-replay';
import { AcpTurn } from './acp-turn';
import { asRecord, str } from './dialect-core';
import type { ThreadJournal } from './journal';

/** What the sessions need from the adapter. */
export interface AcpSessionDeps {
  readonly journal: ThreadJournal;
  readonly models: AcpModels;
  /** One request to the agent for the client request answered through `ctx`, errors translated. */
  acp(method: string, params: unknown, ctx: RequestContext, threadId?: string): Promise<unknown>;
  /** Tether's MCP server entry for a session of thread `threadId`. */
  mcpServers(threadId: string): Promise<AcpMcpServer[]>;
  /** Tells the client something about thread `threadId` that the user should know. */
  warn(threadId: string, message: string): void;
  /** The agent's name as it gave it, for messages. */
  agentName(): string;
  /** The working directory of a thread that has none recorded. */
  defaultCwd(): string;
  readonly log: (line: string) => void;
}

/** The sessions of one agent process. */
export class AcpSessions {
  /** The agent can reload a session (`loadSession`), as its `initialize` said. */
  canLoad = false;
  /** Sessions this agent process knows (created or loaded since it started). */
  private readonly live = new Set<string>();
  /** Sessions being loaded: their replayed updates rebuild history only when `replays` has a collector. */
  private readonly loading = new Set<string>();
  private readonly replays = new Map<string, AcpTurn>();
  private readonly replay = new ReplayWatch();

  constructor(private readonly deps: AcpSessionDeps) {}

  /** Records a session the agent just created (`session/new`). */
  started(sessionId: string): void {
    this.live.add(sessionId);
  }

  /**
   * Takes a `session/update` first: true when it belongs to a session being loaded (a replay, consumed here), false
   * when it is for the session's running turn.
   */
  replayed(sessionId: string, update: Record<string, unknown>): boolean {
    this.replay.noteUpdate(sessionId);
    if (!this.loading.has(sessionId)) return false;
    this.replays.get(sessionId)?.update(update);
    return true;
  }

  /** The agent session for a thread in this agent process: reloaded, or a new one when the agent cannot reload. */
  async attach(threadId: string, ctx: RequestContext): Promise<string> {
    const { journal } = this.deps;
    const entry = journal.get(threadId)!;
    if (this.live.has(entry.sessionId)) return entry.sessionId;
    const cwd = entry.thread.cwd ?? this.deps.defaultCwd();
    let why = `${this.deps.agentName()} cannot load sessions`;
    if (this.canLoad) {
      try {
        await this.load(entry.sessionId, cwd, false, ctx, threadId);
        return entry.sessionId;
      } catch (error) {
        why = agentErrorText(error);
        this.deps.log(`session/load of ${entry.sessionId} failed, starting a new session: ${why}`);
      }
    }
    const mcpServers = await this.deps.mcpServers(threadId);
    const session = asRecord(await this.deps.acp('session/new', { cwd, mcpServers }, ctx));
    const sessionId = str(session.sessionId);
    if (!sessionId) throw RpcError.internal(`${this.deps.agentName()} answered session/new without a sessionId`);
    this.live.add(sessionId);
    await this.deps.models.ofSession(sessionId, session);
    journal.update(threadId, {}, sessionId);
    this.deps.warn(
      threadId,
      `${this.deps.agentName()} cannot reopen its earlier session of this thread (${why}): this turn starts without the earlier context (the history is still shown).`,
    );
    return sessionId;
  }

  /** A session the agent listed but the journal never saw is loaded once, its replay rebuilding the history. */
  async rebuildUnread(threadId: string, ctx: RequestContext): Promise<void> {
    const entry = this.deps.journal.get(threadId)!;
    if (entry.unread === true && this.canLoad && !this.live.has(entry.sessionId)) {
      this.deps.journal.put({ thread: entry.thread, sessionId: entry.sessionId });
      await this.load(entry.sessionId, entry.thread.cwd ?? process.cwd(), true, ctx, threadId);
    }
  }

  /** `session/load`; its replayed updates rebuild history only when `collect` (the journal already has it otherwise). */
  private async load(
    sessionId: string,
    cwd: string,
    collect: boolean,
    ctx: RequestContext,
    threadId: string,
  ): Promise<void> {
    this.loading.add(sessionId);
    const record = (item: Item) => this.deps.journal.append(sessionId, item);
    const collector = collect ? new AcpTurn(sessionId, [], { emit: () => undefined, record }) : undefined;
    if (collector) this.replays.set(sessionId, collector);
    try {
      const mcpServers = await this.deps.mcpServers(threadId);
      const loaded = asRecord(await this.deps.acp('session/load', { sessionId, cwd, mcpServers }, ctx, sessionId));
      this.live.add(sessionId);
      await this.replay.ended(sessionId);
      await this.deps.models.ofSession(sessionId, loaded);
      collector?.finish('completed');
    } finally {
      this.loading.delete(sessionId);
      this.replays.delete(sessionId);
    }
  }
}
