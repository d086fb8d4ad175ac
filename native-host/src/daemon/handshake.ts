/**
 * The first line of every connection to the daemon, before anything else is read: the client presents the token
 * (and says who it is, or asks for a control command); the daemon answers with one line (its version, or why it
 * refused, then it closes). From then on the connection carries JSON-RPC messages, one a line, both ways.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Socket } from 'node:net';
import { z } from 'zod';
import { TETHER_VERSION } from '../version';

/** Tests start a daemon that reports an older version with this variable (version skew without two builds). */
export const TEST_DAEMON_VERSION_ENV = 'TETHER_TEST_DAEMON_VERSION';

/** The version this process reports as a daemon: TETHER_VERSION, unless a test says otherwise. */
export function daemonVersion(env: NodeJS.ProcessEnv = process.env): string {
  return env[TEST_DAEMON_VERSION_ENV] || TETHER_VERSION;
}

/** Longest first line either side reads: anything longer is not a client of ours. */
export const HANDSHAKE_MAX_BYTES = 4096;
/** How long a client has to present its token. */
export const HANDSHAKE_TIMEOUT_MS = 5000;

/** What a client sends first. */
export const DaemonHello = z.object({
  token: z.string().max(256),
  /** The relaying host's version (what `bridge/hello` reports as `hostVersion`). */
  hostVersion: z.string().max(64).optional(),
  /** The browser the relaying host serves, as `tether mcp --browser` names it. */
  browser: z.string().max(64).optional(),
  /** A control request instead of a relayed browser connection. */
  control: z.enum(['status', 'stop']).optional(),
});
/** What a client sends first. */
export type DaemonHello = z.infer<typeof DaemonHello>;

/** A browser connection the daemon serves, as `tether daemon status` and `tether doctor` list it. */
export const DaemonClient = z.object({
  /** The connection's number, in the names of its MCP files (`host-DAEMONPID-ID.*`). */
  id: z.number(),
  /** The browser behind it, as `tether mcp --browser` names it. */
  browser: z.string(),
  /** The socket `tether mcp` reaches this browser's page tools through, once open. */
  mcpSocket: z.string().optional(),
});
/** A browser connection the daemon serves. */
export type DaemonClient = z.infer<typeof DaemonClient>;

/** What `tether daemon status` reports. */
export const DaemonStatus = z.object({
  pid: z.number(),
  version: z.string(),
  startedAtMs: z.number(),
  uptimeMs: z.number(),
  socket: z.string(),
  log: z.string(),
  clients: z.number(),
  /** The connected browsers (absent from a daemon older than this list). */
  connections: z.array(DaemonClient).optional(),
  runningTurns: z.number(),
  idleExitMs: z.number(),
});
/** What `tether daemon status` reports. */
export type DaemonStatus = z.infer<typeof DaemonStatus>;

/** The daemon's answer to the first line. */
export const DaemonWelcome = z.union([
  z.object({ ok: z.literal(true), daemonVersion: z.string(), pid: z.number(), status: DaemonStatus.optional() }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);
/** The daemon's answer to the first line. */
export type DaemonWelcome = z.infer<typeof DaemonWelcome>;

/** Compares a presented token with the daemon's in constant time (both hashed, so their lengths leak nothing). */
export function tokenMatches(presented: string, expected: string): boolean {
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** A connection's first line was missing, too long, late or not what it should be. */
export class HandshakeError extends Error {
  override name = 'HandshakeError';
}

/**
 * Reads one line (without its newline) from `socket`, then stops reading: `rest` holds the bytes that came after it
 * in the same reads. Rejects when the line is longer than HANDSHAKE_MAX_BYTES, the socket ends first, or it takes
 * longer than `timeoutMs`.
 */
export function readFirstLine(
  socket: Socket,
  timeoutMs = HANDSHAKE_TIMEOUT_MS,
): Promise<{ line: string; rest: Buffer }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (error: Error | undefined, result?: { line: string; rest: Buffer }): void => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('close', onEnd);
      socket.off('error', onError);
      socket.pause();
      if (error) reject(error);
      else resolve(result!);
    };
    const onData = (chunk: Buffer): void => {
      const nl = chunk.indexOf(0x0a);
      if (nl === -1) {
        chunks.push(chunk);
        size += chunk.length;
        if (size > HANDSHAKE_MAX_BYTES)
          finish(new HandshakeError(`the first line is longer than ${HANDSHAKE_MAX_BYTES} bytes`));
        return;
      }
      if (size + nl > HANDSHAKE_MAX_BYTES) {
        finish(new HandshakeError(`the first line is longer than ${HANDSHAKE_MAX_BYTES} bytes`));
        return;
      }
      chunks.push(chunk.subarray(0, nl));
      finish(undefined, { line: Buffer.concat(chunks).toString('utf8'), rest: chunk.subarray(nl + 1) });
    };
    const onEnd = (): void => finish(new HandshakeError('the connection closed before its first line'));
    const onError = (error: Error): void => finish(error);
    const timer = setTimeout(() => finish(new HandshakeError(`no first line within ${timeoutMs} ms`)), timeoutMs);
    socket.on('data', onData);
    socket.once('end', onEnd);
    socket.once('close', onEnd);
    socket.once('error', onError);
    socket.resume();
  });
}

/** Parses a first line against `schema`; rejects with what was wrong. */
export function parseLine<T>(line: string, schema: z.ZodType<T>, what: string): T {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new HandshakeError(`${what} is not JSON`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new HandshakeError(`${what} is not valid: ${parsed.error.issues[0]?.message ?? ''}`);
  return parsed.data;
}
