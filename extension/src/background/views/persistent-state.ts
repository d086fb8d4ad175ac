/**
 * Everything the worker must remember across its own restarts, kept in chrome.storage and cached in memory.
 * Tab bindings and pending approvals live in `session` storage (tab ids do not outlive the browser); site rules,
 * settings, the connection log and the turns last seen running in `local`. Values are parsed on load: a corrupt entry is dropped, never trusted,
 * and so is a site rule that could never apply (see `isApplicableRule`). Each value's type is inferred from the schema
 * that loads it (shared/records.ts for what pages also see).
 */
import { redactText } from '@tether/protocol';
import { z } from 'zod';
import { ConnectionEvent, PendingApproval, Settings, type SiteRule } from '../../shared/records';
import { ToolClass } from '../../shared/action-risk';
import { isApplicableRule, StoredSiteRule } from '../approvals/site-rules';

/** The part of chrome.storage.StorageArea the worker uses (injected so tests run without a browser). */
export interface StorageAreaLike {
  get(keys: string[]): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
}

/** A change of settings: a value sets a field, `null` clears it, absent leaves it. */
export type SettingsPatch = {
  [K in keyof Settings]?: Settings[K] | null;
};

/** A tab's thread. */
export const TabBinding = z.object({ threadId: z.string().min(1) });
export type TabBinding = z.infer<typeof TabBinding>;

/**
 * A thread's task group beyond the tabs bound to it (tabs/task-groups.ts): tabs the agent opened or the user added,
 * the tab the page tools act on when a call names none, and the browser's tab group that shows them.
 */
export const TaskGroupRecord = z.object({
  tabs: z.array(z.object({ tabId: z.number().int().nonnegative(), by: z.enum(['agent', 'user']) })),
  current: z.number().int().nonnegative().optional(),
  browserGroup: z.number().int().optional(),
});
export type TaskGroupRecord = z.infer<typeof TaskGroupRecord>;

/**
 * "Allow for this thread" of a page tool: it covers that tool's class on the one origin the card named, for the
 * thread's own agent, or (with `caller`) for one external MCP client on one connection only.
 */
export const ThreadAllow = z.object({
  toolClass: ToolClass,
  origin: z.string(),
  caller: z.object({ name: z.string(), connection: z.string() }).optional(),
});
export type ThreadAllow = z.infer<typeof ThreadAllow>;

/**
 * A turn this browser last saw running, and the last item of its thread it saw finish: a worker started later (the
 * browser closed or killed and started again, the extension reloaded) learns from it that the daemon may have gone on
 * with the turn meanwhile, and from where.
 */
export const SeenTurn = z.object({ turnId: z.string().min(1), after: z.string().min(1).optional() });
export type SeenTurn = z.infer<typeof SeenTurn>;

const KEYS = {
  bindings: 'tether.bindings',
  pending: 'tether.pendingApprovals',
  // Grants were once kept under `tether.sessionAllows` as thread x tool, with no origin. That key is never read:
  // such a grant would cover every site, so it counts as absent and the user is asked again. It lives in session
  // storage, which the browser clears when it closes, so it is not cleaned up here.
  threadAllows: 'tether.threadAllows',
  taskGroups: 'tether.taskGroups',
  rules: 'tether.siteRules',
  settings: 'tether.settings',
  log: 'tether.connectionLog',
  seenTurns: 'tether.seenTurns',
} as const;

/** How many threads' seen turns are kept (the oldest go first: a thread that was deleted never ends its turn here). */
const SEEN_TURNS_LIMIT = 50;

/** How many connection errors diagnostics keep. */
export const CONNECTION_LOG_LIMIT = 20;

/** Parses an array entry by entry, keeping the valid ones. */
function parseList<T>(schema: z.ZodType<T>, value: unknown): T[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((v) => {
    const r = schema.safeParse(v);
    return r.success ? [r.data] : [];
  });
}

function parseRecord<T>(schema: z.ZodType<T>, value: unknown): Map<string, T> {
  const out = new Map<string, T>();
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) {
      const r = schema.safeParse(v);
      if (r.success) out.set(k, r.data);
    }
  }
  return out;
}

/** The worker's durable memory. Call `load()` once before use; every mutation writes through. */
export class PersistentState {
  private bindingsByTab = new Map<number, TabBinding>();
  private pendingByKey = new Map<string, PendingApproval>();
  private allows = new Map<string, ThreadAllow[]>();
  private groups = new Map<string, TaskGroupRecord>();
  private rulesList: SiteRule[] = [];
  private settingsValue: Settings = {};
  private logList: ConnectionEvent[] = [];
  private seen = new Map<string, SeenTurn>();
  /** Threads whose seen turn an earlier worker stored, not yet shown again (the browser was away since). */
  private left = new Set<string>();

  constructor(private readonly areas: { local: StorageAreaLike; session: StorageAreaLike }) {}

  /** Reads everything from storage, dropping entries that do not parse. */
  async load(): Promise<void> {
    const [s, l] = await Promise.all([
      this.areas.session.get([KEYS.bindings, KEYS.pending, KEYS.threadAllows, KEYS.taskGroups]),
      this.areas.local.get([KEYS.rules, KEYS.settings, KEYS.log, KEYS.seenTurns]),
    ]);
    this.bindingsByTab = new Map(
      [...parseRecord(TabBinding, s[KEYS.bindings])].flatMap(([k, v]) => (/^\d+$/.test(k) ? [[Number(k), v]] : [])),
    );
    this.pendingByKey = new Map(parseList(PendingApproval, s[KEYS.pending]).map((p) => [p.key, p]));
    this.allows = parseRecord(z.array(ThreadAllow), s[KEYS.threadAllows]);
    this.groups = parseRecord(TaskGroupRecord, s[KEYS.taskGroups]);
    this.rulesList = parseList(StoredSiteRule, l[KEYS.rules]).filter(isApplicableRule);
    const settings = Settings.safeParse(l[KEYS.settings]);
    this.settingsValue = settings.success ? settings.data : {};
    // Entries an older version stored unredacted are masked here and rewritten with the next error.
    this.logList = parseList(ConnectionEvent, l[KEYS.log])
      .slice(-CONNECTION_LOG_LIMIT)
      .map((e) => ({ ...e, message: redactText(e.message) }));
    this.seen = parseRecord(SeenTurn, l[KEYS.seenTurns]);
    this.left = new Set(this.seen.keys());
  }

  /** The turn of `threadId` this browser last saw running; `left` when an earlier worker saw it (and not this one). */
  seenTurn(threadId: string): (SeenTurn & { left: boolean }) | undefined {
    const seen = this.seen.get(threadId);
    return seen && { ...seen, left: this.left.has(threadId) };
  }

  /** An item of `threadId` finished in this worker's sight: a later worker knows the browser had it. */
  async seenItem(threadId: string, itemId: string): Promise<void> {
    const seen = this.seen.get(threadId);
    if (seen && !this.left.has(threadId)) await this.setSeenTurn(threadId, { turnId: seen.turnId, after: itemId });
  }

  /** The turn `turnId` of `threadId` ended in this worker's sight: forgotten. */
  async seenTurnEnd(threadId: string, turnId: string): Promise<void> {
    if (this.seen.get(threadId)?.turnId === turnId) await this.setSeenTurn(threadId, undefined);
  }

  /** Remembers (or with `undefined` forgets) the turn of `threadId` this worker sees running. */
  async setSeenTurn(threadId: string, turn: SeenTurn | undefined): Promise<void> {
    this.left.delete(threadId);
    if (turn) {
      this.seen.delete(threadId);
      this.seen.set(threadId, turn);
      for (const old of [...this.seen.keys()].slice(0, -SEEN_TURNS_LIMIT)) this.seen.delete(old);
    } else if (!this.seen.delete(threadId)) return;
    await this.areas.local.set({ [KEYS.seenTurns]: Object.fromEntries(this.seen) });
  }

  /** The thread bound to `tabId`, if any. */
  binding(tabId: number): TabBinding | undefined {
    return this.bindingsByTab.get(tabId);
  }

  /** Tabs whose panel shows `threadId`. */
  tabsForThread(threadId: string): number[] {
    return [...this.bindingsByTab].filter(([, b]) => b.threadId === threadId).map(([tab]) => tab);
  }

  /** Every bound thread id, once each. */
  boundThreads(): string[] {
    return [...new Set([...this.bindingsByTab.values()].map((b) => b.threadId))];
  }

  /** Binds (or with `undefined` unbinds) a tab's thread. */
  async setBinding(tabId: number, binding: TabBinding | undefined): Promise<void> {
    if (binding) this.bindingsByTab.set(tabId, binding);
    else this.bindingsByTab.delete(tabId);
    await this.areas.session.set({ [KEYS.bindings]: Object.fromEntries(this.bindingsByTab) });
  }

  /** The task group record of every thread that has one. */
  taskGroups(): ReadonlyMap<string, TaskGroupRecord> {
    return this.groups;
  }

  /** Stores (or with `undefined` forgets) a thread's task group record. */
  async setTaskGroup(threadId: string, group: TaskGroupRecord | undefined): Promise<void> {
    if (group) this.groups.set(threadId, group);
    else this.groups.delete(threadId);
    await this.areas.session.set({ [KEYS.taskGroups]: Object.fromEntries(this.groups) });
  }

  /** All pending approvals. */
  pendingApprovals(): PendingApproval[] {
    return [...this.pendingByKey.values()];
  }

  /** Adds or removes pending approvals in one write. */
  async updatePending(add: PendingApproval[], removeKeys: string[] = []): Promise<void> {
    for (const k of removeKeys) this.pendingByKey.delete(k);
    for (const p of add) this.pendingByKey.set(p.key, p);
    await this.areas.session.set({ [KEYS.pending]: [...this.pendingByKey.values()] });
  }

  /** Page tools the user allowed for the rest of a thread, each on one origin (the server tracks its own tools). */
  threadAllows(threadId: string): readonly ThreadAllow[] {
    return this.allows.get(threadId) ?? [];
  }

  /** Remembers "allow for this thread on this origin" for a page tool. */
  async addThreadAllow(threadId: string, allow: ThreadAllow): Promise<void> {
    const list = this.allows.get(threadId) ?? [];
    const same = (a: ThreadAllow): boolean =>
      a.toolClass === allow.toolClass && a.origin === allow.origin && a.caller?.connection === allow.caller?.connection;
    if (!list.some(same)) this.allows.set(threadId, [...list, allow]);
    await this.areas.session.set({ [KEYS.threadAllows]: Object.fromEntries(this.allows) });
  }

  /** Stored site rules that can apply (http(s) origins), oldest first; rules of the old per-tool shape become class rules. */
  rules(): readonly SiteRule[] {
    return this.rulesList;
  }

  /** Replaces the rule list; throws, storing nothing, if a rule names something no site rule may cover. */
  async setRules(rules: SiteRule[]): Promise<void> {
    const bad = rules.find((r) => !isApplicableRule(r));
    if (bad)
      throw new Error(
        `A site rule can only name an http(s) origin exactly (like https://example.com), not "${bad.origin}".`,
      );
    this.rulesList = rules;
    await this.areas.local.set({ [KEYS.rules]: rules });
  }

  /** The user's settings. */
  settings(): Settings {
    return this.settingsValue;
  }

  /** Merges settings; `null` clears a field. */
  async updateSettings(patch: SettingsPatch): Promise<void> {
    const next: Settings = { ...this.settingsValue };
    for (const key of ['backend', 'model'] as const) {
      const v = patch[key];
      if (v === null) delete next[key];
      else if (v !== undefined) next[key] = v;
    }
    if (patch.trustedInput === null) delete next.trustedInput;
    else if (patch.trustedInput !== undefined) next.trustedInput = patch.trustedInput;
    if (patch.trustedSites === null) delete next.trustedSites;
    else if (patch.trustedSites !== undefined) next.trustedSites = [...new Set(patch.trustedSites)];
    this.settingsValue = next;
    await this.areas.local.set({ [KEYS.settings]: next });
  }

  /** Recent connection errors, oldest first. */
  connectionLog(): readonly ConnectionEvent[] {
    return this.logList;
  }

  /** Appends a connection error with its secrets masked, keeping the last CONNECTION_LOG_LIMIT. */
  async logConnectionError(event: ConnectionEvent): Promise<void> {
    // Kept on disk: a handshake failure may quote a backend's stderr or a server's error, and with them a key.
    this.logList = [...this.logList, { ...event, message: redactText(event.message) }].slice(-CONNECTION_LOG_LIMIT);
    await this.areas.local.set({ [KEYS.log]: this.logList });
  }
}
