/**
 * The first line of every connection to the daemon, before anything else is read: the client presents the token
 * (and says who it is, or asks for a control command); the daemon answers with one line (its version, or why it
 * refused, then it closes). From then on the connection carries JSON-RPC messages, one a line, both ways.
 *
 * These two lines are checked by the small readers below rather than by Zod schemas: they are all a relaying
 * `tether host` parses, and loading Zod (about 400 KB of its code) cost every browser connection 15-30 ms before its
 * first answer. For the same reason the daemon's check of the token (token.ts, node:crypto) is not here.
 */
import type { Socket } from 'node:net';
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

/** Checks a parsed first line: returns it typed (unknown members dropped), or throws a HandshakeError saying why. */
export type LineReader<T> = (value: unknown) => T;

/** What a client sends first. */
export interface DaemonHello {
  readonly token: string;
  /** The relaying host's version (what `bridge/hello` reports as `hostVersion`). */
  readonly hostVersion?: string;
  /** The browser the relaying host serves, as `tether mcp --browser` names it. */
  readonly browser?: string;
  /** A control request instead of a relayed browser connection. */
  readonly control?: 'status' | 'stop';
}
/** Reads what a client sends first. */
export const DaemonHello: LineReader<DaemonHello> = (value) => {
  const f = new Fields(value, 'the hello');
  return {
    token: f.string('token', 256),
    ...defined('hostVersion', f.optional('hostVersion', f.string, 64)),
    ...defined('browser', f.optional('browser', f.string, 64)),
    ...defined('control', f.optional('control', f.oneOf, ['status', 'stop'] as const)),
  };
};

/** A browser connection the daemon serves, as `tether daemon status` and `tether doctor` list it. */
export interface DaemonClient {
  /** The connection's number, in the names of its MCP files (`host-DAEMONPID-ID.*`). */
  readonly id: number;
  /** The browser behind it, as `tether mcp --browser` names it. */
  readonly browser: string;
  /** The socket `tether mcp` reaches this browser's page tools through, once open. */
  readonly mcpSocket?: string;
}
function readClient(value: unknown, at: string): DaemonClient {
  const f = new Fields(value, at);
  return {
    id: f.number('id'),
    browser: f.string('browser'),
    ...defined('mcpSocket', f.optional('mcpSocket', f.string)),
  };
}

/** What `tether daemon status` reports. */
export interface DaemonStatus {
  readonly pid: number;
  readonly version: string;
  readonly startedAtMs: number;
  readonly uptimeMs: number;
  readonly socket: string;
  readonly log: string;
  readonly clients: number;
  /** The connected browsers (absent from a daemon older than this list). */
  readonly connections?: readonly DaemonClient[];
  readonly runningTurns: number;
  readonly idleExitMs: number;
}
function readStatus(value: unknown): DaemonStatus {
  const f = new Fields(value, 'status');
  const connections = f.optional('connections', f.array);
  return {
    pid: f.number('pid'),
    version: f.string('version'),
    startedAtMs: f.number('startedAtMs'),
    uptimeMs: f.number('uptimeMs'),
    socket: f.string('socket'),
    log: f.string('log'),
    clients: f.number('clients'),
    ...defined(
      'connections',
      connections?.map((c, i) => readClient(c, `status.connections[${i}]`)),
    ),
    runningTurns: f.number('runningTurns'),
    idleExitMs: f.number('idleExitMs'),
  };
}

/** The daemon's answer to the first line. */
export type DaemonWelcome =
  | { readonly ok: true; readonly daemonVersion: string; readonly pid: number; readonly status?: DaemonStatus }
  | { readonly ok: false; readonly error: string };
/** Reads the daemon's answer to the first line. */
export const DaemonWelcome: LineReader<DaemonWelcome> = (value) => {
  const f = new Fields(value, 'the welcome');
  const ok = f.boolean('ok');
  if (!ok) return { ok, error: f.string('error') };
  const status = f.optional('status', (key) => readStatus(f.value(key)));
  return { ok, daemonVersion: f.string('daemonVersion'), pid: f.number('pid'), ...defined('status', status) };
};

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

/** Parses a first line and checks it with `read`; rejects with what was wrong. */
export function parseLine<T>(line: string, read: LineReader<T>, what: string): T {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new HandshakeError(`${what} is not JSON`);
  }
  try {
    return read(value);
  } catch (error) {
    throw new HandshakeError(`${what} is not valid: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** `{ [key]: value }`, or nothing when the value is undefined (an absent optional member stays absent). */
function defined<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  const member: Partial<Record<K, V>> = {};
  if (value !== undefined) member[key] = value;
  return member;
}

/** The members of a JSON object, each checked as it is taken; a failed check names the member (`at.key`). */
class Fields {
  private readonly members: ReadonlyMap<string, unknown>;

  constructor(
    value: unknown,
    private readonly at: string,
  ) {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new HandshakeError(`${at} is not a JSON object`);
    // Own members only: `__proto__` or `toString` in a line is a member like any other, never an inherited one.
    this.members = new Map<string, unknown>(Object.entries(value));
  }

  /** The member's value, whatever it is (undefined when absent). */
  value(key: string): unknown {
    return this.members.get(key);
  }

  /** `take(key)` when the member is present, else undefined. */
  optional<T, A extends unknown[]>(key: string, take: (key: string, ...args: A) => T, ...args: A): T | undefined {
    return this.value(key) === undefined ? undefined : take.call(this, key, ...args);
  }

  readonly string = (key: string, maxLength = Number.POSITIVE_INFINITY): string => {
    const v = this.value(key);
    if (typeof v !== 'string') throw this.wrong(key, 'a string');
    if (v.length > maxLength) throw this.wrong(key, `at most ${maxLength} characters`);
    return v;
  };

  readonly number = (key: string): number => {
    const v = this.value(key);
    if (typeof v !== 'number' || !Number.isFinite(v)) throw this.wrong(key, 'a number');
    return v;
  };

  readonly boolean = (key: string): boolean => {
    const v = this.value(key);
    if (typeof v !== 'boolean') throw this.wrong(key, 'true or false');
    return v;
  };

  readonly oneOf = <T extends string>(key: string, values: readonly T[]): T => {
    const v = this.value(key);
    const found = values.find((x) => x === v);
    if (found === undefined) throw this.wrong(key, values.map((x) => JSON.stringify(x)).join(' or '));
    return found;
  };

  readonly array = (key: string): unknown[] => {
    const v = this.value(key);
    if (!Array.isArray(v)) throw this.wrong(key, 'an array');
    return v;
  };

  private wrong(key: string, expected: string): HandshakeError {
    return new HandshakeError(`${this.at}.${key} must be ${expected}`);
  }
}
