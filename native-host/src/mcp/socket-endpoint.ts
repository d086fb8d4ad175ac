/**
 * The host's MCP socket, which `tether mcp` connects to: per connection, a hello line with a token (hello.ts), then
 * MCP's newline-delimited JSON served by the SDK for that token's grant. A connection that says nothing useful within
 * HELLO_TIMEOUT_MS, sends a longer first line or a token this host did not issue is answered with an error and closed.
 * One that closes without a word is a probe (`tether mcp` and other hosts check that a socket answers): not logged.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { chmodSync, unlinkSync } from 'node:fs';
import { errorMessage } from '@tether/protocol/errors';
import type { McpGrants } from './grants';
import { socketAnswers } from './host-registry';
import { answerLine, FirstLine, type HelloAccepted, parseHello } from './hello';

/** How long a connection may take to send its hello. */
const HELLO_TIMEOUT_MS = 10_000;
/** Largest MCP message read from the socket (page text and screenshots travel the other way). */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/** Options of startSocketEndpoint. */
export interface SocketEndpointOptions {
  /** How long a connection may take to send its hello (default HELLO_TIMEOUT_MS). */
  readonly helloTimeoutMs?: number;
}

/** A listening socket. */
export interface McpSocketEndpoint {
  readonly path: string;
  close(): Promise<void>;
}

/** Listens on `path` (a stale socket there is removed only when nothing answers on it). */
export async function startSocketEndpoint(
  path: string,
  grants: McpGrants,
  self: HelloAccepted,
  log: (line: string) => void,
  options: SocketEndpointOptions = {},
): Promise<McpSocketEndpoint> {
  const helloTimeoutMs = options.helloTimeoutMs ?? HELLO_TIMEOUT_MS;
  if (process.platform !== 'win32' && (await socketAnswers(path))) {
    throw new Error(`another process already listens on ${path}`);
  }
  if (process.platform !== 'win32') {
    try {
      unlinkSync(path);
    } catch {}
  }
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    accept(socket, grants, self, log, helloTimeoutMs);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      // The folder (0700) already keeps others out; the socket's own mode says so too.
      if (process.platform !== 'win32') chmodSync(path, 0o600);
      resolve();
    });
  });
  return {
    path,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (process.platform !== 'win32') {
        try {
          unlinkSync(path);
        } catch {}
      }
    },
  };
}

function accept(
  socket: Socket,
  grants: McpGrants,
  self: HelloAccepted,
  log: (line: string) => void,
  helloTimeoutMs: number,
): void {
  const first = new FirstLine();
  const refuse = (message: string): void => {
    log(`mcp socket: refused a connection: ${message}`);
    socket.end(answerLine({ error: { message } }));
  };
  const seconds = helloTimeoutMs >= 1000 ? `${Math.round(helloTimeoutMs / 1000)} s` : `${helloTimeoutMs} ms`;
  const timer = setTimeout(() => refuse(`no hello within ${seconds}`), helloTimeoutMs);
  // A probe connects and closes: it must not be refused (and logged) once the timer fires, long after it left.
  socket.once('close', () => clearTimeout(timer));
  socket.on('error', () => undefined);
  const onData = (chunk: Buffer): void => {
    let got: ReturnType<FirstLine['push']>;
    try {
      got = first.push(chunk);
    } catch (error) {
      clearTimeout(timer);
      socket.off('data', onData);
      refuse(errorMessage(error));
      return;
    }
    if (!got) return;
    clearTimeout(timer);
    socket.pause();
    socket.off('data', onData);
    let token: string;
    try {
      token = parseHello(got.line).token;
    } catch (error) {
      refuse(errorMessage(error));
      return;
    }
    const grant = grants.find(token);
    if (!grant) {
      refuse('the token is not valid for this Tether host (it may have been revoked when its conversation ended)');
      return;
    }
    // A session whose grant ended is closed, so its client looks for another host instead of waiting on this one.
    const end = (): void => void socket.destroy();
    grant.ended?.addEventListener('abort', end, { once: true });
    socket.once('close', () => grant.ended?.removeEventListener('abort', end));
    socket.write(answerLine({ ok: self }));
    if (got.rest.length > 0) socket.unshift(got.rest);
    // The SDK is loaded by the first client with a valid token, never at the host's start.
    void Promise.all([import('@modelcontextprotocol/sdk/server/stdio.js'), import('./server')])
      .then(([{ StdioServerTransport }, { serveMcp }]) =>
        serveMcp(grant, new StdioServerTransport(socket, socket, { maxBufferSize: MAX_MESSAGE_BYTES }), log),
      )
      .then(
        (server) => {
          socket.once('close', () => void server.close());
          socket.resume();
        },
        (error: unknown) => {
          log(`mcp socket: ${errorMessage(error)}`);
          socket.destroy();
        },
      );
  };
  socket.on('data', onData);
}
