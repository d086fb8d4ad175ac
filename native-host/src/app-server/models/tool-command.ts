/**
 * The scripted model's `/tool NAME {json args}` and `/tools`: any tool, built-in or declared by the client, driven
 * by hand, so tests and people trying the browser tools need no real model. Bad usage is answered, never thrown:
 * a typo should cost a reply, not a failed turn.
 */
import { errorMessage } from '@tether/protocol/errors';
import type { ToolOutcome, ToolSpec, TurnContext } from './model';

/** A parsed `/tool` command: the call to make, or the reply explaining what is wrong with it. */
export type ToolCommand = { name: string; args: Record<string, unknown> } | { usage: string };

/** Parses what follows `/tool` against the turn's tools. Arguments default to `{}`. */
export function parseToolCommand(argument: string, tools: readonly ToolSpec[]): ToolCommand {
  const match = /^(\S+)\s*([\s\S]*)$/.exec(argument.trim());
  if (!match) return { usage: `Usage: \`/tool NAME {json arguments}\`. ${toolList(tools)}` };
  const name = match[1]!;
  const json = match[2]!.trim();
  if (!tools.some((t) => t.name === name)) return { usage: `There is no tool \`${name}\`. ${toolList(tools)}` };
  if (json === '') return { name, args: {} };
  let args: unknown;
  try {
    args = JSON.parse(json);
  } catch (error) {
    return {
      usage: `The arguments of \`${name}\` are not valid JSON (${errorMessage(error)}). Write them as one JSON object, for example \`/tool ${name} {"ref": "e3"}\`.`,
    };
  }
  if (!isObject(args)) {
    return { usage: `The arguments of \`${name}\` must be a JSON object (\`{...}\`), not ${describeJson(args)}.` };
  }
  return { name, args };
}

/** The reply to a finished `/tool` call: the outcome named first, the tool's text in a fenced block. */
export function describeToolOutcome(name: string, outcome: ToolOutcome): string {
  switch (outcome.status) {
    case 'completed':
      if (outcome.text.trim() === '') return `\`${name}\` completed with no output.`;
      return `\`${name}\` completed:\n\n${fenced(outcome.text)}`;
    case 'declined':
      return `\`${name}\` was declined, so it did not run: ${outcome.text}`;
    case 'failed':
      return `\`${name}\` failed:\n\n${fenced(outcome.text)}`;
  }
}

/** Runs `/tool ARGUMENT`; resolves with the reply, or undefined when the turn was interrupted meanwhile. */
export async function runToolCommand(ctx: TurnContext, argument: string): Promise<string | undefined> {
  const command = parseToolCommand(argument, ctx.tools);
  if ('usage' in command) return command.usage;
  const outcome = await ctx.callTool(command.name, command.args);
  if (ctx.signal.aborted) return undefined;
  return describeToolOutcome(command.name, outcome);
}

/** The reply to `/tools`: every tool of the turn, the client's marked as such, with its description's first line. */
export function listTools(ctx: TurnContext): string {
  if (ctx.tools.length === 0) return 'No tools are available in this turn.';
  const declared = new Set(ctx.clientTools.map((t) => t.name));
  const lines = ctx.tools.map((t) => {
    const summary = t.description.split('\n')[0]?.trim() ?? '';
    return `- \`${t.name}\`${declared.has(t.name) ? ' (client)' : ' (built-in)'}${summary ? `: ${summary}` : ''}`;
  });
  return ['Tools you can call with `/tool NAME {json arguments}`:', '', ...lines].join('\n');
}

function toolList(tools: readonly ToolSpec[]): string {
  if (tools.length === 0) return 'No tools are available in this turn.';
  return `Available tools: ${tools.map((t) => `\`${t.name}\``).join(', ')}.`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/** A fenced code block that no backtick run inside `text` can close early. */
function fenced(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}\n${text.trimEnd()}\n${fence}`;
}
