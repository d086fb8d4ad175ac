/**
 * The `scripted` model: offline and deterministic, so people and tests can drive every part of the protocol.
 * Commands (documented in native-host/README.md): /bash, /page (or any question about "this page"), /tool, /tools,
 * /stream, /big, /think, /fail; anything else gets a reply that lists them. Every answer streams in several deltas, and input queued
 * by `turn/steer` is appended to the reply being written.
 */
import { setImmediate as yieldToEventLoop, setTimeout as sleep } from 'node:timers/promises';
import { ModelError, type Model, type StreamWriter, type TurnContext } from './model';
import { summarisePage } from './page-summary';
import { listTools, runToolCommand } from './tool-command';

/** The id the scripted model is listed and selected under. */
export const SCRIPTED_MODEL_ID = 'scripted';

/** Deltas streamed between two yields to the event loop: keeps interrupts and other threads served. */
const DELTAS_PER_YIELD = 256;
/** Largest delta of `/big`. */
const BIG_DELTA_BYTES = 16 * 1024;
/** Largest `/big` answer. */
const BIG_MAX_BYTES = 256 * 1024 * 1024;

/** The scripted model. */
export class ScriptedModel implements Model {
  async run(ctx: TurnContext): Promise<void> {
    const text = ctx.input.trim();
    const [command = '', ...rest] = text.split(/\s+/);
    const argument = text.slice(command.length).trim();
    switch (command) {
      case '/bash':
        return this.bash(ctx, argument);
      case '/page':
        return this.page(ctx);
      case '/tool':
        return this.tool(ctx, argument);
      case '/tools':
        return reply(ctx, listTools(ctx));
      case '/stream':
        return this.stream(ctx, rest);
      case '/big':
        return this.big(ctx, rest[0]);
      case '/think':
        return this.think(ctx, argument);
      case '/fail':
        throw new ModelError(
          'The scripted model failed this turn on purpose (/fail). Send another message to go on.',
          'scripted_fail',
        );
      default:
        if (/\bthis page\b/i.test(text)) return this.page(ctx);
        return reply(ctx, helpText(text));
    }
  }

  private async bash(ctx: TurnContext, command: string): Promise<void> {
    if (command === '') return reply(ctx, 'Usage: /bash <command>, for example `/bash ls -la`.');
    const outcome = await ctx.callTool('bash', { command });
    if (ctx.signal.aborted) return;
    if (outcome.status === 'declined') return reply(ctx, `You declined to run \`${command}\`, so I did not run it.`);
    if (outcome.status === 'failed') return reply(ctx, `\`${command}\` could not run: ${outcome.text}`);
    return reply(ctx, `Ran \`${command}\`. ${outcome.text.trimEnd()}`);
  }

  private async tool(ctx: TurnContext, argument: string): Promise<void> {
    const answer = await runToolCommand(ctx, argument);
    if (answer !== undefined) return reply(ctx, answer);
  }

  private async page(ctx: TurnContext): Promise<void> {
    if (!ctx.clientTools.some((t) => t.name === 'page_read')) {
      return reply(
        ctx,
        'I cannot read the page: this client did not declare the `page_read` tool (capabilities.clientTools).',
      );
    }
    const outcome = await ctx.callTool('page_read', {});
    if (ctx.signal.aborted) return;
    if (outcome.status !== 'completed') return reply(ctx, `I could not read the page: ${outcome.text}`);
    return reply(ctx, summarisePage(outcome.result, outcome.text));
  }

  /** `/stream N [delayMs] [messages]`: N numbers in all, in `messages` agent messages that each finish in turn. */
  private async stream(ctx: TurnContext, args: string[]): Promise<void> {
    const count = parseCount(args[0], 'N', 10_000_000);
    const delayMs = args[1] === undefined ? 0 : parseCount(args[1], 'delayMs', 60_000);
    const messages = args[2] === undefined ? 1 : Math.max(1, parseCount(args[2], 'messages', 1000));
    for (let m = 0, next = 1; m < messages; m++) {
      const last = Math.round((count * (m + 1)) / messages);
      const writer = ctx.startMessage('agentMessage');
      for (; next <= last; next++) {
        if (ctx.signal.aborted) return;
        writer.delta(`${next} `);
        if (delayMs > 0) await sleep(delayMs, undefined, { signal: ctx.signal }).catch(() => undefined);
        else if (next % DELTAS_PER_YIELD === 0) await ctx.pace();
        if (delayMs > 0 || next % DELTAS_PER_YIELD === 0) appendSteer(ctx, writer);
      }
      appendSteer(ctx, writer);
      writer.complete();
    }
  }

  private async big(ctx: TurnContext, arg: string | undefined): Promise<void> {
    const bytes = parseCount(arg, 'BYTES', BIG_MAX_BYTES);
    const writer = ctx.startMessage('agentMessage');
    const pieceSize = Math.max(1, Math.min(BIG_DELTA_BYTES, Math.ceil(bytes / 4)));
    const filler = 'tether '.repeat(Math.ceil(pieceSize / 7) + 1);
    for (let sent = 0, n = 0; sent < bytes; n++) {
      if (ctx.signal.aborted) return;
      const size = Math.min(pieceSize, bytes - sent);
      writer.delta(filler.slice(0, size));
      sent += size;
      if (n % 64 === 63) await ctx.pace();
    }
    writer.complete();
  }

  private async think(ctx: TurnContext, topic: string): Promise<void> {
    const subject = topic || 'your message';
    const reasoning = ctx.startMessage('reasoning');
    await streamText(ctx, reasoning, `The user asked me to think about ${subject}. A short, direct answer fits best.`);
    reasoning.complete();
    return reply(ctx, `I thought about ${subject}. This is the scripted model, so the thinking is scripted too.`);
  }
}

/** Streams `text` as a new agent message in several deltas, appends queued steer input, completes it. */
async function reply(ctx: TurnContext, text: string): Promise<void> {
  const writer = ctx.startMessage('agentMessage');
  await streamText(ctx, writer, text);
  appendSteer(ctx, writer);
  writer.complete();
}

/** Splits text at word boundaries into about eight deltas (at least two when it has two words). */
async function streamText(ctx: TurnContext, writer: StreamWriter, text: string): Promise<void> {
  const words = text.match(/\S+\s*/g) ?? [text];
  const per = Math.max(1, Math.ceil(words.length / 8));
  for (let i = 0; i < words.length; i += per) {
    if (ctx.signal.aborted) return;
    writer.delta(words.slice(i, i + per).join(''));
    await yieldToEventLoop();
  }
}

function appendSteer(ctx: TurnContext, writer: StreamWriter): void {
  for (const text of ctx.takeSteer()) writer.delta(`\n\n(steered: ${text})`);
}

function parseCount(value: string | undefined, name: string, max: number): number {
  const n = value === undefined ? NaN : Number(value);
  if (!Number.isInteger(n) || n < 0 || n > max) {
    throw new ModelError(
      `${name} must be a whole number from 0 to ${max}, got ${JSON.stringify(value ?? '')}.`,
      'scripted_usage',
    );
  }
  return n;
}

function helpText(said: string): string {
  const quoted = said.length > 200 ? `${said.slice(0, 200)}...` : said;
  return [
    `Hello! This is Tether's scripted model: offline and deterministic. You said: "${quoted}".`,
    '',
    'Try one of these commands:',
    '',
    '- `/bash <command>` runs a shell command in the thread folder (asks for your approval first)',
    '- `/page` (or ask about "this page") reads the page in this tab and summarises it',
    "- `/tool NAME {json arguments}` calls a tool (built-in or this client's) and shows its result, e.g. `/tool page_snapshot`",
    '- `/tools` lists the tools `/tool` can call',
    '- `/stream N [delayMs] [messages]` streams N small deltas (in that many messages)',
    '- `/big BYTES` answers with one message of that many bytes',
    '- `/think TEXT` shows reasoning, then answers',
    '- `/fail` fails the turn with an error',
    '',
    "To talk to a real model, open Tether's options (right-click the toolbar button, then Options): its Model section " +
      'takes an OpenAI-compatible endpoint and lists the agents found on this computer (Codex, Claude Code, Gemini...).',
  ].join('\n');
}
