/** Small helpers shared by the mock model servers: a loopback HTTP server and server-sent-event writing. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the mock received, with its parsed JSON body. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: unknown;
}

/** A running loopback server. */
export interface LoopbackServer {
  readonly port: number;
  readonly origin: string;
  close(): Promise<void>;
}

/** Starts an HTTP server on 127.0.0.1 (random port); the handler gets the parsed JSON body. */
export async function startLoopbackServer(
  handle: (req: IncomingMessage, res: ServerResponse, body: unknown) => void | Promise<void>,
): Promise<LoopbackServer> {
  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const text = Buffer.concat(parts).toString('utf8');
      let body: unknown;
      if (text.length > 0) {
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
      }
      Promise.resolve(handle(req, res, body)).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: String(error) } }));
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A running scripted model server (the common part of the mock model APIs). */
export interface ScriptedModelServer<Turn, Body> extends LoopbackServer {
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  /** Answers to the next streaming requests, used before the script. */
  enqueue(...turns: Turn[]): void;
  /** Replaces the fallback script. */
  setScript(script: (request: { body: Body; index: number }) => Turn): void;
}

/** How a mock model API differs from another: where it streams, what it lists, how it writes a turn. */
export interface ScriptedModelOptions<Turn, Body> {
  /** The path suffix of the streaming POST endpoint (e.g. `/responses`). */
  readonly streamPath: string;
  /** The JSON answer to `GET .../models`. */
  readonly models: unknown;
  /** Decides a turn when the queue is empty; `index` counts streaming requests from 0. */
  readonly script: (request: { body: Body; index: number }) => Turn;
  /** Writes one turn as server-sent events and ends the stream. */
  stream(sse: SseWriter, turn: Turn, index: number, body: Body): Promise<void>;
  /**
   * Answers requests that are not the agent's turns (token counts, routing or title requests) without taking from the
   * queue or the script: a JSON body, or a turn to stream. Undefined lets the request through.
   */
  readonly aside?: (request: {
    method: string;
    path: string;
    body: Body;
  }) => { json: unknown } | { turn: Turn } | undefined;
}

/**
 * Starts a loopback mock model: records every request, answers `GET .../models`, streams a turn for each POST to
 * `streamPath` (queued turns first, then the script) and answers anything else with 404.
 */
export async function startScriptedModelServer<Turn, Body>(
  options: ScriptedModelOptions<Turn, Body>,
): Promise<ScriptedModelServer<Turn, Body>> {
  const requests: RecordedRequest[] = [];
  const queue: Turn[] = [];
  let script = options.script;
  let count = 0;
  const server = await startLoopbackServer(async (req, res, body) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body });
    if (req.method === 'GET' && path.endsWith('/models')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(options.models));
      return;
    }
    const aside = options.aside?.({ method: req.method ?? 'GET', path, body: (body ?? {}) as Body });
    if (aside && 'json' in aside) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(aside.json));
      return;
    }
    if (aside) {
      await options.stream(new SseWriter(res), aside.turn, -1, (body ?? {}) as Body);
      return;
    }
    if (req.method !== 'POST' || !path.endsWith(options.streamPath)) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `mock has no ${req.method} ${path}` } }));
      return;
    }
    const request = (body ?? {}) as Body;
    const index = count++;
    const turn = queue.shift() ?? script({ body: request, index });
    await options.stream(new SseWriter(res), turn, index, request);
  });
  return {
    ...server,
    requests,
    enqueue: (...turns) => queue.push(...turns),
    setScript: (next) => {
      script = next;
    },
  };
}

/** Writes SSE frames; `closed` tells a slow stream to stop when the client went away. */
export class SseWriter {
  private ended = false;
  constructor(private readonly res: ServerResponse) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.on('close', () => {
      this.ended = true;
    });
  }

  /** True once the client disconnected or `end` was called. */
  get closed(): boolean {
    return this.ended;
  }

  /** Sends `event: <event>` (when given) and `data: <json>`. */
  send(data: unknown, event?: string): void {
    if (this.ended) return;
    const head = event === undefined ? '' : `event: ${event}\n`;
    this.res.write(`${head}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  }

  /** Sends a text turn's pieces through `send`, paced by textPacing; resolves false when the client went away first. */
  async streamText(turn: TextTurn, send: (piece: string) => void): Promise<boolean> {
    const { chunks, delayMs } = textPacing(turn, turn.kind === 'slow');
    for (const piece of splitText(turn.text, chunks)) {
      if (delayMs > 0) await pause(delayMs, () => this.closed);
      if (this.closed) return false;
      send(piece);
    }
    return true;
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.res.end();
  }
}

/** The turns every mock model streams as text: `text` in a few pieces at once, `slow` in many pieces to interrupt. */
export type TextTurn =
  | { kind: 'text'; text: string; chunks?: number; chunkDelayMs?: number }
  /** Streams `text` in `chunks` pieces `chunkDelayMs` apart (default: 200 pieces, 100 ms): something to interrupt. */
  | { kind: 'slow'; text: string; chunks?: number; chunkDelayMs?: number };

/** Resolves after `ms`, or at once when `stop()` turns true (checked every 20 ms). */
async function pause(ms: number, stop: () => boolean = () => false): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until && !stop()) {
    await new Promise((r) => setTimeout(r, Math.min(20, until - Date.now())));
  }
}

/** How a text turn is streamed: 3 pieces at once by default, a slow one 200 pieces 100 ms apart. */
function textPacing(
  turn: { chunks?: number; chunkDelayMs?: number },
  slow: boolean,
): { chunks: number; delayMs: number } {
  return { chunks: turn.chunks ?? (slow ? 200 : 3), delayMs: turn.chunkDelayMs ?? (slow ? 100 : 0) };
}

/** Splits `text` into about `count` pieces (at least one), keeping every character. */
function splitText(text: string, count: number): string[] {
  if (text.length === 0) return [''];
  const size = Math.max(1, Math.ceil(text.length / Math.max(1, count)));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
