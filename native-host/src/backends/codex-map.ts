/**
 * Pure translations of Codex app-server objects (threads, turns, items, statuses, errors) into Tether's.
 * Everything from Codex is read defensively: unknown fields are ignored, missing ones get safe defaults.
 */
import {
  type ApprovalDecision,
  type ApprovalOutcome,
  ErrorCode,
  type Item,
  type ModelInfo,
  RpcError,
  type Thread,
  type ThreadStatus,
  type Turn,
  type TurnStatus,
  type UserInput,
} from '@tether/protocol';
import { asRecord, secondsToMs, str } from './dialect-core';

/** Tether thread status from Codex's `{type, activeFlags?}`. */
export function mapThreadStatus(status: unknown): ThreadStatus {
  const s = asRecord(status);
  switch (s.type) {
    case 'active':
      return Array.isArray(s.activeFlags) && s.activeFlags.includes('waitingOnApproval')
        ? 'waitingOnApproval'
        : 'running';
    case 'systemError':
      return 'error';
    default:
      return 'idle';
  }
}

/** Tether thread from a Codex thread. `archived` is told by the caller or by the rollout path. */
export function mapThread(raw: unknown, archived?: boolean): Thread {
  const t = asRecord(raw);
  const now = Date.now();
  const createdAtMs = secondsToMs(t.createdAt, now);
  const path = str(t.path) ?? '';
  return {
    id: str(t.id) ?? '',
    title: str(t.name) ?? str(t.preview) ?? '',
    model: str(t.model) ?? '',
    status: mapThreadStatus(t.status),
    archived: archived ?? /[\\/]archived_sessions[\\/]/.test(path),
    ephemeral: t.ephemeral === true,
    createdAtMs,
    updatedAtMs: secondsToMs(t.updatedAt, createdAtMs),
    ...(typeof t.cwd === 'string' ? { cwd: t.cwd } : {}),
  };
}

/** Tether turn status from Codex's. */
export function mapTurnStatus(status: unknown): TurnStatus {
  switch (status) {
    case 'completed':
      return 'completed';
    case 'interrupted':
      return 'interrupted';
    case 'failed':
      return 'failed';
    default:
      return 'running';
  }
}

/** Tether turn from a Codex turn; `input` is what the client sent (Codex keeps it in a userMessage item). */
export function mapTurn(raw: unknown, threadId: string, input: UserInput[] = []): Turn {
  const t = asRecord(raw);
  const error = asRecord(t.error);
  const message = str(error.message);
  return {
    id: str(t.id) ?? '',
    threadId,
    status: mapTurnStatus(t.status),
    input: input.length > 0 ? input : inputFromItems(t.items),
    ...(typeof t.startedAt === 'number' ? { startedAtMs: secondsToMs(t.startedAt, 0) } : {}),
    ...(typeof t.completedAt === 'number' ? { completedAtMs: secondsToMs(t.completedAt, 0) } : {}),
    ...(message
      ? { error: { message, ...(codeOf(error.codexErrorInfo) ? { code: codeOf(error.codexErrorInfo) } : {}) } }
      : {}),
  };
}

function codeOf(info: unknown): string | undefined {
  if (typeof info === 'string') return info;
  const keys = Object.keys(asRecord(info));
  return keys[0];
}

function inputFromItems(items: unknown): UserInput[] {
  if (!Array.isArray(items)) return [];
  const user = items.map(asRecord).find((i) => i.type === 'userMessage');
  return user ? [{ type: 'text', text: userText(user.content) }] : [];
}

/** Codex user input array -> plain text. */
export function userText(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content
    .map(asRecord)
    .map((c) =>
      c.type === 'text' ? (str(c.text) ?? '') : c.type === 'image' || c.type === 'localImage' ? '[image]' : '',
    )
    .filter((s) => s.length > 0)
    .join('\n');
}

/** Timestamps and turn of an item event. */
export interface ItemContext {
  readonly turnId?: string;
  /** True for `item/completed` and for history: the item is final. */
  readonly final: boolean;
}

/**
 * Tether item from a Codex item, or undefined for kinds Tether does not show (plans, hooks, review markers,
 * compaction, anything new). Tool-like kinds become `toolCall` items carrying their details.
 */
export function mapItem(raw: unknown, ctx: ItemContext): Item | undefined {
  const i = asRecord(raw);
  const id = str(i.id);
  if (!id) return undefined;
  const createdAtMs = typeof i.startedAtMs === 'number' ? i.startedAtMs : Date.now();
  const completedAtMs = typeof i.completedAtMs === 'number' ? i.completedAtMs : ctx.final ? Date.now() : undefined;
  const base = {
    id,
    createdAtMs,
    ...(ctx.final && completedAtMs !== undefined ? { completedAtMs } : {}),
    ...(ctx.turnId ? { turnId: ctx.turnId } : {}),
  };
  const plainStatus = ctx.final ? ('completed' as const) : ('inProgress' as const);
  switch (i.type) {
    case 'userMessage':
      return { ...base, type: 'userMessage', status: plainStatus, content: { text: userText(i.content) } };
    case 'agentMessage':
      return { ...base, type: 'agentMessage', status: plainStatus, content: { text: str(i.text) ?? '' } };
    case 'reasoning':
      return { ...base, type: 'reasoning', status: plainStatus, content: { text: reasoningText(i) } };
    case 'commandExecution':
      return toolCall(base, ctx.final, i.status, {
        toolName: 'shell',
        arguments: { command: i.command, cwd: i.cwd },
        result: ctx.final
          ? { output: i.aggregatedOutput ?? '', exitCode: i.exitCode ?? null, durationMs: i.durationMs ?? null }
          : undefined,
      });
    case 'fileChange':
      return toolCall(base, ctx.final, i.status, { toolName: 'apply_patch', arguments: { changes: i.changes ?? [] } });
    case 'mcpToolCall': {
      const error = str(asRecord(i.error).message);
      return toolCall(base, ctx.final, i.status, {
        toolName: [str(i.server), str(i.tool)].filter(Boolean).join('.'),
        arguments: i.arguments,
        result: i.result ?? undefined,
        error,
      });
    }
    case 'dynamicToolCall':
      return toolCall(base, ctx.final, i.status, {
        toolName: str(i.tool) ?? 'tool',
        arguments: i.arguments,
        result: i.contentItems ?? undefined,
        error: i.success === false ? 'The tool reported a failure' : undefined,
      });
    case 'webSearch':
      return toolCall(base, ctx.final, i.status, {
        toolName: 'web_search',
        arguments: { query: i.query, action: i.action },
      });
    case 'imageView':
      return toolCall(base, ctx.final, i.status, { toolName: 'view_image', arguments: { path: i.path } });
    default:
      return undefined;
  }
}

function reasoningText(i: Record<string, unknown>): string {
  const parts = [i.summary, i.content].flatMap((p) =>
    Array.isArray(p) ? p.filter((s): s is string => typeof s === 'string') : [],
  );
  return parts.join('\n\n');
}

function toolCall(
  base: { id: string; createdAtMs: number; completedAtMs?: number; turnId?: string },
  final: boolean,
  codexStatus: unknown,
  details: { toolName: string; arguments: unknown; result?: unknown; error?: string },
): Item {
  const status = mapToolStatus(codexStatus, final);
  return {
    ...base,
    type: 'toolCall',
    status,
    content: {
      toolName: details.toolName,
      arguments: details.arguments,
      status: typeof codexStatus === 'string' ? codexStatus : status,
      ...(details.result !== undefined ? { result: details.result } : {}),
      ...(details.error ? { error: details.error } : {}),
    },
  };
}

function mapToolStatus(status: unknown, final: boolean): Item['status'] {
  switch (status) {
    case 'declined':
      return 'declined';
    case 'failed':
      return 'failed';
    case 'completed':
      return 'completed';
    case 'inProgress':
      return final ? 'completed' : 'inProgress';
    default:
      return final ? 'completed' : 'inProgress';
  }
}

/** All the items of a Codex thread read with `includeTurns`, in order, as Tether items. */
export function historyItems(thread: unknown): Item[] {
  const turns = asRecord(thread).turns;
  return Array.isArray(turns) ? turns.flatMap(turnItems) : [];
}

/** The items of one Codex turn (with its items loaded), in order, as Tether items. */
export function turnItems(raw: unknown): Item[] {
  const turn = asRecord(raw);
  const turnId = str(turn.id);
  const final = turn.status !== 'inProgress';
  const out: Item[] = [];
  for (const item of Array.isArray(turn.items) ? turn.items : []) {
    const mapped = mapItem(item, { turnId, final: final || asRecord(item).completedAtMs != null });
    if (mapped) out.push(mapped);
  }
  return out;
}

/**
 * Codex answers nearly every failure with -32600; its message tells what happened. Recover Tether's code from it so
 * the extension can react (e.g. forget a thread that no longer exists).
 */
export function mapCodexError(error: unknown, context: { method: string; threadId?: string }): Error {
  if (!(error instanceof RpcError)) return error instanceof Error ? error : new Error(String(error));
  const m = error.message;
  const tagged = (code: number, message: string): RpcError =>
    new RpcError(code, message, { ...asRecord(error.data), codexCode: error.code, codexMessage: m }, { cause: error });
  if (error.code !== ErrorCode.InvalidRequest && error.code !== ErrorCode.InternalError) return error;
  if (/^Not initialized/i.test(m)) return tagged(ErrorCode.NotInitialized, 'Not initialized: send initialize first');
  if (/^Already initialized/i.test(m)) return tagged(ErrorCode.AlreadyInitialized, 'Already initialized');
  if (/unknown variant `([^`]*)`/.test(m) && /^Invalid request/i.test(m)) {
    return tagged(ErrorCode.MethodNotFound, `Method not found: ${context.method} (Codex does not know it)`);
  }
  if (/thread not (loaded|found)|no rollout found|invalid thread id|unknown thread/i.test(m)) {
    const id = context.threadId ?? '';
    return tagged(ErrorCode.ThreadNotFound, `Thread not found: ${id}${id ? '' : '(unknown)'} (Codex: ${m})`);
  }
  if (/archived/i.test(m))
    return tagged(
      ErrorCode.ThreadArchived,
      `Thread ${context.threadId ?? ''} is archived: unarchive it first (Codex: ${m})`,
    );
  if (/no active turn/i.test(m))
    return tagged(ErrorCode.NoActiveTurn, `Thread ${context.threadId ?? ''} has no active turn (Codex: ${m})`);
  if (/expected.*turn|turn.*mismatch|does not match/i.test(m))
    return tagged(ErrorCode.TurnMismatch, `Turn id mismatch (Codex: ${m})`);
  if (/^Invalid request: (invalid type|invalid value|missing field|unknown field)/i.test(m)) {
    return tagged(
      ErrorCode.InvalidParams,
      `Invalid params for ${context.method}: ${m.replace(/^Invalid request: /i, '')}`,
    );
  }
  return error;
}

/** `{[key]: value}` from the client's value, else the config's (null there = leave it to Codex), else the default. */
export function policy(
  key: string,
  fromClient: unknown,
  fromConfig: unknown,
  fallback: string | undefined,
): Record<string, unknown> {
  const value = fromClient ?? (fromConfig === undefined ? fallback : fromConfig);
  return value === undefined || value === null ? {} : { [key]: value };
}

/** Which Tether choices a Codex command approval offers (deny is always possible: Codex accepts `decline`). */
export function choicesFrom(available: unknown): ApprovalDecision[] {
  if (!Array.isArray(available)) return ['allow', 'allow_session', 'deny'];
  const choices: ApprovalDecision[] = ['allow'];
  if (available.includes('acceptForSession')) choices.push('allow_session');
  choices.push('deny');
  return choices;
}

/** Codex's answer for a Tether outcome. */
export function codexDecision(outcome: ApprovalOutcome): 'accept' | 'acceptForSession' | 'decline' | 'cancel' {
  switch (outcome) {
    case 'allow':
      return 'accept';
    case 'allow_session':
      return 'acceptForSession';
    case 'deny':
      return 'decline';
    default:
      return 'cancel';
  }
}

/** Codex's `model/list` data as Tether's models: the ones Codex does not hide, with their names and default. */
export function mapModels(data: unknown): ModelInfo[] {
  return (Array.isArray(data) ? data : [])
    .map(asRecord)
    .filter((m) => m.hidden !== true && typeof m.id === 'string')
    .map((m) => ({
      id: String(m.id),
      ...(str(m.displayName) ? { displayName: str(m.displayName) } : {}),
      provider: 'codex',
      ...(typeof m.isDefault === 'boolean' ? { isDefault: m.isDefault } : {}),
    }));
}
