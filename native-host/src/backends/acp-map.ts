/**
 * Pure translations of ACP values into Tether's and back: stop reasons, permission options, session config. Everything
 * from the agent is read defensively.
 */
import type { ApprovalDecision, ApprovalOutcome, Thread } from '@tether/protocol';
import { asRecord, str } from './dialect-core';

/** How a turn ends, from an ACP stop reason. */
export interface TurnEnd {
  readonly status: 'completed' | 'interrupted' | 'failed';
  readonly error?: { message: string; code?: string | number };
}

/** Turn status from an ACP stop reason. */
export function stopStatus(stopReason: string | undefined, interrupted: boolean): TurnEnd {
  if (stopReason === 'cancelled' || interrupted) return { status: 'interrupted' };
  if (stopReason === 'refusal')
    return { status: 'failed', error: { message: 'The agent refused to continue', code: 'refusal' } };
  if (stopReason === 'max_tokens')
    return { status: 'completed', error: { message: 'The answer was cut at the token limit', code: 'max_tokens' } };
  if (stopReason === 'max_turn_requests') {
    return {
      status: 'completed',
      error: { message: 'The agent reached its limit of model requests for one turn', code: 'max_turn_requests' },
    };
  }
  return { status: 'completed' };
}

/** The model a new session runs, from its config options. */
export function currentModel(configOptions: unknown): string | undefined {
  if (!Array.isArray(configOptions)) return undefined;
  const model = configOptions.map(asRecord).find((o) => o.category === 'model' || o.id === 'model');
  return model ? str(model.currentValue) : undefined;
}

/** A backend id as a folder name. */
export function safeSegment(id: string): string {
  return id.replace(/[^A-Za-z0-9._-]/g, '_') || 'acp';
}

function optionOf(
  options: readonly Record<string, unknown>[],
  kinds: readonly string[],
): Record<string, unknown> | undefined {
  return options.find((o) => kinds.includes(str(o.kind) ?? ''));
}

/** The Tether choices a permission request's options offer (deny always: ACP can always be answered cancelled). */
export function permissionChoices(options: readonly Record<string, unknown>[]): ApprovalDecision[] {
  const choices: ApprovalDecision[] = [];
  if (optionOf(options, ['allow_once'])) choices.push('allow');
  if (optionOf(options, ['allow_always'])) choices.push('allow_session');
  choices.push('deny');
  return choices;
}

/** The option that carries out `outcome`, or undefined to answer `cancelled`. */
export function permissionOption(
  options: readonly Record<string, unknown>[],
  outcome: ApprovalOutcome,
): Record<string, unknown> | undefined {
  switch (outcome) {
    case 'allow':
      return optionOf(options, ['allow_once']);
    case 'allow_session':
      return optionOf(options, ['allow_always']) ?? optionOf(options, ['allow_once']);
    case 'deny':
      return optionOf(options, ['reject_once', 'reject_always']);
    default:
      return undefined;
  }
}

/** What an approval card shows for a permission request's tool call. */
export interface ApprovalCard {
  readonly toolName: string;
  readonly preview: string;
  readonly arguments: unknown;
}

/**
 * The card for a `session/request_permission` tool call, showing the command once: Claude Code titles a shell call
 * with the command in backticks and repeats it in `rawInput`; Gemini sends no `rawInput`, its title is the command.
 */
export function approvalCard(toolCall: Record<string, unknown>): ApprovalCard {
  const raw = asRecord(toolCall.rawInput);
  const title = str(toolCall.title) ?? str(toolCall.kind) ?? 'tool';
  const bare = title.replace(/^`([^`]*)`$/, '$1');
  const given = str(raw.command);
  const command = given ?? (toolCall.kind === 'execute' && toolCall.rawInput === undefined ? bare : undefined);
  const args = toolCall.rawInput ?? (command === undefined ? {} : { command });
  if (command === undefined) return { toolName: title, preview: title, arguments: args };
  // A title that is only the command would repeat it on the card: the tool is then named as Codex names its own.
  if (bare === command) return { toolName: 'shell', preview: command, arguments: args };
  return { toolName: title, preview: title.includes(command) ? command : `${title}: ${command}`, arguments: args };
}

/** A model an ACP agent offers (`availableModels` of a session). */
export interface AcpModel {
  readonly id: string;
  readonly displayName?: string;
  readonly description?: string;
}

/** A session's models: the current one and those it can switch to, from `configOptions` or the `models` field. */
export function sessionModels(session: Record<string, unknown>): { current?: string; available: AcpModel[] } {
  const fromOptions = currentModel(session.configOptions);
  const models = asRecord(session.models);
  const available = (Array.isArray(models.availableModels) ? models.availableModels : []).map(asRecord).flatMap((m) => {
    const id = str(m.modelId);
    if (!id) return [];
    return [
      {
        id,
        ...(str(m.name) ? { displayName: str(m.name) } : {}),
        ...(str(m.description) ? { description: str(m.description) } : {}),
      },
    ];
  });
  const current = fromOptions ?? str(models.currentModelId);
  return { ...(current ? { current } : {}), available };
}

/** An agent's error as one line: its message, and the detail ACP agents put in `data` ("Internal error" says little). */
export function agentErrorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const data = 'data' in error ? error.data : undefined;
  const record = asRecord(data);
  const detail = typeof data === 'string' ? data : (str(record.details) ?? str(record.message));
  return detail && !error.message.includes(detail) ? `${error.message}: ${detail}` : error.message;
}

/** A thread for a session that `session/list` returned (`{sessionId, cwd, title, updatedAt}`), if it has an id. */
export function listedThread(session: Record<string, unknown>): Thread | undefined {
  const id = str(session.sessionId);
  if (!id) return undefined;
  const updated = Date.parse(str(session.updatedAt) ?? '') || Date.now();
  const cwd = str(session.cwd);
  return {
    id,
    title: str(session.title) ?? '',
    model: '',
    status: 'idle',
    archived: false,
    ephemeral: false,
    createdAtMs: updated,
    updatedAtMs: updated,
    ...(cwd ? { cwd } : {}),
  };
}
