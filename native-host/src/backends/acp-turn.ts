/**
 * One ACP prompt turn seen as Tether items: `session/update` chunks become agentMessage/reasoning items with deltas,
 * tool calls become toolCall items, the plan one reasoning item. It emits the item notifications and hands every
 * finished item to `record` (the journal). Used live, and silently to rebuild history from a `session/load` replay.
 */
import { randomUUID } from 'node:crypto';
import type {
  Item,
  ItemStatus,
  ServerNotificationMethod,
  ServerNotificationParams,
  Turn,
  TurnStatus,
  UserInput,
} from '@tether/protocol';
import { completedItem, startedItem } from '../store/items';
import { asRecord, str } from './dialect-core';

/** Where a turn's output goes. */
export interface TurnSink {
  emit<M extends ServerNotificationMethod>(method: M, params: ServerNotificationParams<M>): void;
  record(item: Item): void;
}

type TextKind = 'agentMessage' | 'reasoning' | 'userMessage';
/** A tool call announced without input is shown by then at the latest (Claude Code names the command within ms). */
const ANNOUNCE_WITHIN_MS = 250;

/** A live (or replayed) turn on one thread. */
export class AcpTurn {
  readonly id = `turn_${randomUUID()}`;
  readonly startedAtMs = Date.now();
  status: TurnStatus = 'running';
  /** Set by turn/interrupt: the turn ends as interrupted whatever the agent's stop reason. */
  interruptRequested = false;
  private open: { kind: TextKind; item: Item; text: string } | undefined;
  private readonly tools = new Map<string, Item>();
  /** Tool calls already completed: an agent's late update for one (Claude's `failed` after a denial) is not new. */
  private readonly ended = new Set<string>();
  private readonly declined = new Set<string>();
  /**
   * Tool calls announced with no input yet (Claude Code's first "Terminal", `rawInput: {}`): their `item/started` waits
   * for the next update, which names the command, so the transcript does not show "Terminal" while the user decides.
   */
  private readonly unannounced = new Set<string>();
  private plan: Item | undefined;
  private counter = 0;

  constructor(
    readonly threadId: string,
    readonly input: UserInput[],
    private readonly sink: TurnSink,
  ) {}

  /** The Tether turn object. */
  toTurn(extra: { completedAtMs?: number; error?: { message: string; code?: string | number } } = {}): Turn {
    return {
      id: this.id,
      threadId: this.threadId,
      status: this.status,
      input: this.input,
      startedAtMs: this.startedAtMs,
      ...extra,
    };
  }

  /** Emits the user's message as a finished item. */
  userMessage(text: string): void {
    this.startText('userMessage', text);
    this.closeText();
  }

  /** Items still in progress (for `thread/resume` during the turn), with their text so far. */
  openItems(): Item[] {
    const out: Item[] = [];
    if (this.open) out.push({ ...this.open.item, content: { text: this.open.text } } as Item);
    out.push(...this.tools.values());
    if (this.plan) out.push(this.plan);
    return out;
  }

  /** Applies one `session/update` payload. Unknown kinds are ignored. */
  update(update: Record<string, unknown>): void {
    const about = str(update.toolCallId);
    for (const id of [...this.unannounced]) if (id !== about) this.announce(id);
    switch (update.sessionUpdate) {
      case 'agent_message_chunk':
        return this.chunk('agentMessage', update.content);
      case 'agent_thought_chunk':
        return this.chunk('reasoning', update.content);
      case 'user_message_chunk':
        return this.chunk('userMessage', update.content);
      case 'tool_call':
        return this.toolCall(update);
      case 'tool_call_update':
        return this.toolCallUpdate(update);
      case 'plan':
        return this.planUpdate(update.entries);
      default:
        // usage_update, available_commands_update, current_mode_update, config_option_update, ...: not items.
        return;
    }
  }

  /**
   * The user refused this tool call: it ends as `declined` now. Some agents send nothing more for it (Gemini), others
   * a `failed` update later (Claude Code, Copilot), which then changes nothing.
   */
  decline(toolCallId: string): void {
    this.declined.add(toolCallId);
    this.finishTool(toolCallId, 'declined', undefined);
  }

  /** The title of tool call `toolCallId` as the agent announced it, if it did. */
  toolTitle(toolCallId: string): string | undefined {
    const item = this.tools.get(toolCallId);
    return item?.type === 'toolCall' ? item.content.toolName : undefined;
  }

  /** Makes sure a tool call the agent asks permission for is shown, even when no `tool_call` update preceded it. */
  ensureToolCall(toolCall: Record<string, unknown>): void {
    const id = str(toolCall.toolCallId);
    if (!id) return;
    if (!this.tools.has(id)) this.toolCall(toolCall);
    else if (this.unannounced.has(id)) this.toolCallUpdate({ ...toolCall, status: undefined });
    // Asked about, it is shown, whatever it lacks.
    this.announce(id);
  }

  /** Closes whatever is open and emits `turn/completed`. */
  finish(status: TurnStatus, error?: { message: string; code?: string | number }): Turn {
    this.closeText();
    const failed: ItemStatus = status === 'completed' ? 'completed' : 'failed';
    for (const id of [...this.tools.keys()])
      this.finishTool(id, this.declined.has(id) ? 'declined' : failed, undefined);
    if (this.plan) this.complete(this.plan, 'completed');
    this.plan = undefined;
    this.status = status;
    const turn = this.toTurn({ completedAtMs: Date.now(), ...(error ? { error } : {}) });
    this.sink.emit('turn/completed', { turn });
    return turn;
  }

  private nextId(kind: string): string {
    return `${this.id}_${kind}_${++this.counter}`;
  }

  private chunk(kind: TextKind, content: unknown): void {
    const text = contentText(content);
    if (this.open?.kind !== kind) {
      this.startText(kind, '');
    }
    if (text.length === 0) return;
    const open = this.open!;
    open.text += text;
    if (kind === 'userMessage') return;
    const method = kind === 'agentMessage' ? 'item/agentMessage/delta' : 'item/reasoning/delta';
    this.sink.emit(method, { threadId: this.threadId, turnId: this.id, itemId: open.item.id, delta: text });
  }

  private startText(kind: TextKind, text: string): void {
    this.closeText();
    const item = startedItem(this.nextId(kind), kind, { text: '' }, this.id, Date.now());
    this.open = { kind, item, text };
    this.sink.emit('item/started', { threadId: this.threadId, turnId: this.id, item });
  }

  private closeText(): void {
    const open = this.open;
    if (!open) return;
    this.open = undefined;
    this.complete({ ...open.item, content: { text: open.text } } as Item, 'completed');
  }

  private toolCall(update: Record<string, unknown>): void {
    const id = str(update.toolCallId);
    if (!id || this.ended.has(id)) return;
    // Claude Code announces each call twice under one id (a bare "Terminal", then the command): one item, updated.
    if (this.tools.has(id)) return this.toolCallUpdate(update);
    this.closeText();
    const item = startedItem(
      id,
      'toolCall',
      {
        toolName: displayTitle(str(update.title)) ?? str(update.kind) ?? 'tool',
        arguments: update.rawInput ?? {},
        status: str(update.status) ?? 'pending',
        ...(str(update.kind) ? { kind: str(update.kind) } : {}),
        ...(Array.isArray(update.locations) ? { locations: update.locations } : {}),
      },
      this.id,
      Date.now(),
    );
    this.tools.set(id, item);
    const status = str(update.status);
    const noInput = Object.keys(asRecord(update.rawInput)).length === 0;
    if (noInput && status !== 'completed' && status !== 'failed') {
      this.unannounced.add(id);
      // An agent that sends nothing more for a while still gets its call shown.
      setTimeout(() => this.announce(id), ANNOUNCE_WITHIN_MS).unref?.();
    } else this.sink.emit('item/started', { threadId: this.threadId, turnId: this.id, item });
    if (status === 'completed' || status === 'failed') this.toolCallUpdate(update);
  }

  private toolCallUpdate(update: Record<string, unknown>): void {
    const id = str(update.toolCallId);
    if (!id || this.ended.has(id)) return;
    if (!this.tools.has(id)) this.toolCall({ ...update, status: 'in_progress' });
    const item = this.tools.get(id);
    if (item?.type !== 'toolCall') return;
    const output = contentText(update.content) || undefined;
    const content = {
      ...item.content,
      ...(displayTitle(str(update.title)) ? { toolName: displayTitle(str(update.title))! } : {}),
      ...(update.rawInput !== undefined ? { arguments: update.rawInput } : {}),
      ...(str(update.status) ? { status: str(update.status)! } : {}),
      ...(output !== undefined ? { result: output } : {}),
      ...(update.rawOutput !== undefined ? { rawOutput: update.rawOutput } : {}),
    };
    this.tools.set(id, { ...item, content });
    this.announce(id);
    if (update.status === 'completed') this.finishTool(id, 'completed', undefined);
    else if (update.status === 'failed') {
      const message = str(asRecord(update.rawOutput).message) ?? output ?? 'The tool call failed';
      this.finishTool(id, this.declined.has(id) ? 'declined' : 'failed', message);
    }
  }

  /** Emits the held `item/started` of a tool call, with what is known of it by now. */
  private announce(id: string): void {
    const item = this.tools.get(id);
    if (!this.unannounced.delete(id) || !item) return;
    this.sink.emit('item/started', { threadId: this.threadId, turnId: this.id, item });
  }

  private finishTool(id: string, status: ItemStatus, error: string | undefined): void {
    this.announce(id);
    const item = this.tools.get(id);
    if (item?.type !== 'toolCall') return;
    this.tools.delete(id);
    this.ended.add(id);
    this.complete({ ...item, content: { ...item.content, ...(error ? { error } : {}) } }, status);
  }

  private planUpdate(entries: unknown): void {
    const text = (Array.isArray(entries) ? entries : [])
      .map(asRecord)
      .map(
        (e) =>
          `${e.status === 'completed' ? '[x]' : e.status === 'in_progress' ? '[~]' : '[ ]'} ${str(e.content) ?? ''}`,
      )
      .join('\n');
    if (!this.plan) {
      this.closeText();
      this.plan = startedItem(this.nextId('plan'), 'reasoning', { text: '' }, this.id, Date.now());
      this.sink.emit('item/started', { threadId: this.threadId, turnId: this.id, item: this.plan });
    }
    // A plan update replaces the whole plan: the finished item carries the last one.
    this.plan = { ...this.plan, content: { text } } as Item;
  }

  private complete(item: Item, status: ItemStatus): void {
    const done = completedItem(item, status, Date.now());
    // Journal first, as the app-server does: an item a client saw completed must survive a crash.
    this.sink.record(done);
    this.sink.emit('item/completed', { threadId: this.threadId, turnId: this.id, item: done });
  }
}

/** A tool call's title for the transcript: Claude Code's "`cmd`" as the command itself. */
function displayTitle(title: string | undefined): string | undefined {
  return title?.replace(/^`([^`]+)`$/, '$1');
}

/** Text of an ACP content block, or of a list of tool-call content entries. */
export function contentText(content: unknown): string {
  if (Array.isArray(content))
    return content.map((c) => contentText(asRecord(c).type === 'content' ? asRecord(c).content : c)).join('');
  const c = asRecord(content);
  switch (c.type) {
    case 'text':
      return str(c.text) ?? '';
    case 'resource_link':
      return str(c.uri) ? `[${str(c.name) ?? str(c.uri)}](${str(c.uri)})` : '';
    case 'image':
      return '[image]';
    case 'diff':
      return str(c.path) ? `Changed ${str(c.path)}` : '';
    default:
      return '';
  }
}
