/** The server's own tools, offered to every model next to the client's tools. */
import type { ApprovalSessionScope } from '@tether/protocol';
import type { ToolOutcome, ToolSpec } from '../models/model';
import { BASH_TOOL, BashToolError, bashCommandOf, describeBashResult, runBash } from './bash';
import { errorMessage } from '@tether/protocol/errors';

/** Settings built-in tools read. */
export interface BuiltinToolEnv {
  readonly bashTimeoutMs: number;
}

/** A built-in tool: how it is offered, whether it needs approval, how it is previewed to the user. */
export interface BuiltinTool extends ToolSpec {
  readonly needsApproval: boolean;
  /** One line for the approval prompt. */
  preview(args: unknown, cwd: string): string;
  /** Why `args` cannot be run (asked before any approval), or undefined when they are fine. */
  invalid(args: unknown): string | undefined;
  /** How far "allow for this thread" reaches (the approval request says so, and the client words its choice from it). */
  readonly sessionScope: ApprovalSessionScope;
  /** What "allow for this thread" covers for a call with `args`: the tool's name, or the name and the exact command. */
  grantKey(args: unknown): string;
}

/** Every built-in tool. */
export const builtinTools: readonly BuiltinTool[] = [
  {
    ...BASH_TOOL,
    needsApproval: true,
    preview: (args, cwd) => `Run \`${bashCommandOf(args)}\` in ${cwd}`,
    // A thread-wide grant for any command would let a page read later in the thread steer the model into running
    // anything: "allow for this thread" covers this exact command line.
    sessionScope: 'command',
    grantKey: (args) => commandGrantKey(BASH_TOOL.name, bashCommandOf(args)),
    invalid: (args) => {
      try {
        bashCommandOf(args);
        return undefined;
      } catch (error) {
        return errorMessage(error);
      }
    },
  },
];

/** The grant key of "allow `command` of tool `toolName` for this thread" (as journaled and looked up). */
export function commandGrantKey(toolName: string, command: string): string {
  return `${toolName}\n${command}`;
}

/** The built-in tool named `name`, if any. */
export function builtinTool(name: string): BuiltinTool | undefined {
  return builtinTools.find((t) => t.name === name);
}

/** Runs a built-in tool; failures come back as a `failed` outcome, never as a throw. */
export async function runBuiltinTool(
  name: string,
  args: unknown,
  run: { cwd: string; signal: AbortSignal },
  env: BuiltinToolEnv,
): Promise<ToolOutcome> {
  if (name !== BASH_TOOL.name) return { status: 'failed', text: `Unknown built-in tool ${name}.` };
  try {
    const result = await runBash(bashCommandOf(args), {
      cwd: run.cwd,
      timeoutMs: env.bashTimeoutMs,
      signal: run.signal,
    });
    const text = describeBashResult(result, env.bashTimeoutMs);
    // A non-zero exit is a result the model should read, not a tool failure.
    return {
      status: 'completed',
      text,
      result: {
        exitCode: result.exitCode,
        output: result.output,
        truncated: result.truncated,
        timedOut: result.timedOut,
      },
    };
  } catch (error) {
    const message = error instanceof BashToolError ? error.message : `The bash tool failed: ${errorMessage(error)}`;
    return { status: 'failed', text: message };
  }
}
