/** What a model sees of a turn, and what it must implement. The turn engine owns items, approvals and persistence. */
import type { ClientTool, Item } from '@tether/protocol';

/** Writes one streamed item (agent message or reasoning): deltas, then complete. Calls after the turn ended are ignored. */
export interface StreamWriter {
  /** The item's id. */
  readonly itemId: string;
  /** Appends text: one `item/.../delta` notification. */
  delta(text: string): void;
  /** Completes the item (journaled, then `item/completed`). */
  complete(): void;
}

/** A tool the model may call. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments object. */
  readonly inputSchema: Record<string, unknown>;
}

/** How a tool call ended, as the model learns it. */
export interface ToolOutcome {
  /** `declined`: the user denied the approval. */
  readonly status: 'completed' | 'failed' | 'declined';
  /** Text for the model: the output, the error, or the rejection. */
  readonly text: string;
  /** Structured result (client tools: their content array). */
  readonly result?: unknown;
}

/** One turn as a model drives it. */
export interface TurnContext {
  readonly threadId: string;
  readonly turnId: string;
  /** Aborts when the turn is interrupted or the server closes. */
  readonly signal: AbortSignal;
  /** The model id the turn runs with (e.g. `scripted`, `gpt-4o-mini`). */
  readonly model: string;
  /** Working directory of the thread (where `bash` runs). */
  readonly cwd: string;
  /** The user's input of this step, joined into one text. */
  readonly input: string;
  /** Completed items of the thread before this step (the user's input item excluded). */
  readonly history: readonly Item[];
  /** Tools offered: the built-in `bash` plus the client's declared tools. */
  readonly tools: readonly ToolSpec[];
  /** Tools the client declared (a subset of `tools`). */
  readonly clientTools: readonly ClientTool[];
  /** Starts a streamed item. */
  startMessage(type: 'agentMessage' | 'reasoning'): StreamWriter;
  /** Runs a tool: asks for approval when it needs one, records a toolCall item; never throws for tool failures. */
  callTool(name: string, args: unknown, callId?: string): Promise<ToolOutcome>;
  /** Drains input queued by `turn/steer` (recorded as userMessage items as it is read). */
  takeSteer(): string[];
  /**
   * Yields to the event loop and waits until the thread's clients have been written what was sent (or the turn is
   * aborted). A model streaming fast calls it every few hundred deltas: interrupts get served and memory stays flat.
   */
  pace(): Promise<void>;
  /** Sends a `warning` notification about this turn. */
  warn(message: string): void;
}

/** A model: runs one step of a turn and resolves when done; rejects with ModelError to fail the turn. */
export interface Model {
  run(ctx: TurnContext): Promise<void>;
}

/** A model failure the user can act on; `message` says what happened and what to do. */
export class ModelError extends Error {
  override name = 'ModelError';
  constructor(
    message: string,
    readonly code?: string | number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
