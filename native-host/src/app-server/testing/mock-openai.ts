/** A local OpenAI-compatible HTTP server on 127.0.0.1 for tests: each test scripts how it answers. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the mock received. */
export interface MockRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown> | undefined;
}

/** Answers one request. */
export type MockHandler = (req: MockRequest, res: ServerResponse, index: number) => void;

/** A running mock; `baseUrl` ends in /v1. */
export interface MockOpenAi {
  readonly baseUrl: string;
  readonly requests: MockRequest[];
  /** Sets how the next requests are answered. */
  handle(handler: MockHandler): void;
  close(): Promise<void>;
}

/** Starts a mock on an ephemeral port. */
export async function startMockOpenAi(): Promise<MockOpenAi> {
  const requests: MockRequest[] = [];
  let handler: MockHandler = (_req, res) => res.writeHead(500).end();
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const entry: MockRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined,
      };
      requests.push(entry);
      handler(entry, res, requests.length - 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    handle: (h) => (handler = h),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes a streamed Chat Completions answer: the given deltas, then a finish chunk and [DONE]. */
export function streamChunks(res: ServerResponse, deltas: Record<string, unknown>[], finish = 'stop'): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const delta of deltas) res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta }] })}\n\n`);
  res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: finish }] })}\n\n`);
  res.end('data: [DONE]\n\n');
}
