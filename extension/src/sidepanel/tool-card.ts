/**
 * A tool call as a card: a one-line summary (`bash: ls -la`) that stays readable at panel width, open while the tool
 * runs and collapsed once it ends, with the command's output as terminal text and page text as text. Everything shown
 * came from the model or a tool, so it is set as text, never as HTML.
 */
import type { ToolCallItem } from '@tether/protocol';

/** Most characters of one output block shown; longer text is cut with a note (the journal keeps all of it). */
const OUTPUT_MAX_CHARS = 20_000;
/** Most characters of the summary's subject: the line ellipses at panel width anyway, this bounds the DOM text. */
const SUBJECT_MAX_CHARS = 200;
/** Argument names that say what a call acts on, most telling first. */
const SUBJECT_KEYS = [
  'command',
  'cmd',
  'url',
  'path',
  'file_path',
  'filePath',
  'query',
  'pattern',
  'name',
  'ref',
  'key',
  // What page_ask_user asked the user: the transcript's record of the request.
  'message',
] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `{}`, `[]`, `null`, `''` and `undefined` say nothing, so they are never printed. */
function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return isRecord(value) && Object.keys(value).length === 0;
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}\n… (${text.length - max} more characters)` : text;
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > SUBJECT_MAX_CHARS ? `${line.slice(0, SUBJECT_MAX_CHARS - 1)}…` : line;
}

/** A command given as a string or as an argv array (Codex's shell), as one would type it. */
function commandOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((part) => typeof part === 'string')) return value.join(' ');
  return undefined;
}

/** The host of a `URL: …` line that page_read's text starts with. */
function pageHost(result: unknown): string | undefined {
  const text = outputText(result);
  const url = text?.match(/^URL: (\S+)/m)?.[1];
  if (!url) return undefined;
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

/** What a call acts on, in a few words: its command, URL, path or query; the page's host for page_read. */
function subjectOf(item: ToolCallItem): string | undefined {
  const { arguments: args, result } = item.content;
  if (typeof args === 'string' && args.trim()) return args;
  if (isRecord(args)) {
    for (const key of SUBJECT_KEYS) {
      const value = key === 'command' || key === 'cmd' ? commandOf(args[key]) : args[key];
      if (typeof value === 'string' && value.trim()) return value;
    }
  }
  if (item.content.toolName.startsWith('page_')) return pageHost(result);
  if (isRecord(args)) {
    const first = Object.values(args).find((v) => typeof v === 'string' && v.trim());
    if (typeof first === 'string') return first;
  }
  return undefined;
}

/** The card's one line: `tool: subject`, and for a call that did not complete, how it ended and why. */
export function summaryLine(item: ToolCallItem): string {
  const subject = subjectOf(item);
  const head = subject ? `${item.content.toolName}: ${oneLine(subject)}` : item.content.toolName;
  const reason = item.content.error ? oneLine(item.content.error) : undefined;
  switch (item.status) {
    case 'inProgress':
      return `${head} (running…)`;
    case 'declined':
      return `${head} — declined${reason ? `: ${reason}` : ''}`;
    case 'failed':
      return `${head} — failed${reason ? `: ${reason}` : ''}`;
    case 'completed':
      return head;
  }
}

/** The text pieces of MCP-style content (`[{type:'text', text}]`, images named), or undefined for other arrays. */
function contentText(result: readonly unknown[]): string | undefined {
  const parts = result.map((piece) => {
    if (!isRecord(piece)) return undefined;
    if (piece.type === 'text' && typeof piece.text === 'string') return piece.text;
    if (piece.type === 'image') return `[image${typeof piece.mimeType === 'string' ? ` ${piece.mimeType}` : ''}]`;
    return undefined;
  });
  return parts.every((p) => p !== undefined) ? parts.join('\n') : undefined;
}

/** A shell result (bash's `{exitCode, output, …}`, Codex's `{output, exitCode, durationMs}`) as a terminal shows it. */
function shellText(result: Record<string, unknown>): string | undefined {
  const output = typeof result.output === 'string' ? result.output : undefined;
  if (output === undefined || !('exitCode' in result)) return undefined;
  const notes: string[] = [];
  if (result.truncated === true) notes.push('[output cut at the size limit]');
  if (result.timedOut === true) notes.push('[timed out]');
  if (typeof result.exitCode === 'number' && result.exitCode !== 0) notes.push(`[exit code ${result.exitCode}]`);
  const body = output === '' && notes.length === 0 ? '(no output)' : output;
  return [body.replace(/\n$/, ''), ...notes].filter(Boolean).join('\n');
}

/** A tool result as readable text: terminal text for commands, page text as text, JSON only for other data; undefined when there is nothing to show. */
export function outputText(result: unknown): string | undefined {
  if (isEmpty(result)) return undefined;
  if (typeof result === 'string') return result;
  if (Array.isArray(result)) {
    const text = contentText(result);
    if (text !== undefined) return text;
  }
  if (isRecord(result)) {
    const shell = shellText(result);
    if (shell !== undefined) return shell;
    if (Array.isArray(result.content)) {
      const text = contentText(result.content);
      if (text !== undefined) return text;
    }
  }
  try {
    return JSON.stringify(result, null, 2) ?? String(result);
  } catch {
    return String(result);
  }
}

/** The arguments worth showing inside the card: the full command, or the JSON of anything the summary left out. */
function argumentsText(item: ToolCallItem): string | undefined {
  const args = item.content.arguments;
  if (isEmpty(args)) return undefined;
  if (isRecord(args)) {
    const command = commandOf(args.command ?? args.cmd);
    if (command !== undefined) return `$ ${command}`;
  }
  return outputText(args);
}

function pre(doc: Document, className: string, text: string): HTMLElement {
  const el = doc.createElement('pre');
  el.className = className;
  el.textContent = cut(text, OUTPUT_MAX_CHARS);
  return el;
}

/**
 * Fills `root` (a `<details>`) with the card of `item`: its summary line, then its arguments, output and error.
 * Returns the body element. Open while running, closed once finished.
 */
export function fillToolCard(root: HTMLDetailsElement, item: ToolCallItem): HTMLElement {
  const doc = root.ownerDocument;
  root.open = item.status === 'inProgress';
  root.dataset.tool = item.content.toolName;
  const summary = doc.createElement('summary');
  summary.className = 'tool-head';
  summary.textContent = summaryLine(item);
  summary.title = summary.textContent;
  root.appendChild(summary);
  const body = doc.createElement('div');
  body.className = 'body';
  const args = argumentsText(item);
  if (args !== undefined) body.appendChild(pre(doc, 'args', args));
  const output = outputText(item.content.result);
  // What the agent ran stays visible with its outcome: the result goes after the arguments, never instead.
  if (output !== undefined) body.appendChild(pre(doc, 'result', output));
  if (item.content.error) body.appendChild(pre(doc, 'result failed', item.content.error));
  return body;
}
