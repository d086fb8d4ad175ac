/**
 * Test helpers: real `tether daemon run` processes in a temporary runtime folder (never the user's), each stopped
 * after the test, and a JSON-lines client that speaks to one through connectDaemon.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { tetherCommand } from '../app-server/testing/server-command';
import { connectDaemon, type DaemonLink } from '../daemon/client';
import { daemonAlive } from '../daemon/lock';
import { type DaemonFiles, daemonFiles } from '../daemon/paths';

/** A temporary home for daemons: its files, environment and the daemons started in it. */
export interface DaemonSandbox {
  readonly dir: string;
  readonly env: NodeJS.ProcessEnv;
  readonly files: DaemonFiles;
  /** Starts `tether daemon run` (not waited for). */
  run(...args: string[]): Promise<ChildProcess>;
  /** Resolves once a daemon answers, with its link (closed by the sandbox after the test). */
  connect(hello?: { control?: 'status' | 'stop' }): Promise<DaemonLink>;
  /** Resolves with the child's exit code. */
  exitOf(child: ChildProcess): Promise<number | null>;
}

/** Registers an afterEach that kills every daemon a sandbox started and removes its folders. */
export function useDaemonSandboxes(): () => DaemonSandbox {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), 'tether-d-'));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      TETHER_RUNTIME_DIR: join(dir, 'run'),
      XDG_STATE_HOME: join(dir, 'state'),
      XDG_DATA_HOME: join(dir, 'data'),
      XDG_CONFIG_HOME: join(dir, 'config'),
    };
    delete env['TETHER_CONFIG'];
    const files = daemonFiles(env);
    const children: ChildProcess[] = [];
    const links: DaemonLink[] = [];
    cleanups.push(() => {
      for (const link of links) link.socket.destroy();
      for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    });
    const exits = new Map<ChildProcess, Promise<number | null>>();
    return {
      dir,
      env,
      files,
      async run(...args) {
        const [node, ...prefix] = await tetherCommand();
        const child = spawn(node!, [...prefix, 'daemon', 'run', ...args], { env, stdio: 'ignore' });
        exits.set(child, new Promise((resolve) => child.once('exit', (code) => resolve(code))));
        children.push(child);
        return child;
      },
      async connect(hello = {}) {
        const deadline = Date.now() + 20_000;
        for (;;) {
          try {
            const link = await connectDaemon(files, { browser: 'test', ...hello });
            links.push(link);
            return link;
          } catch (error) {
            if (Date.now() > deadline) throw error;
            await new Promise((resolve) => setTimeout(resolve, 25));
          }
        }
      },
      exitOf: (child) => exits.get(child) ?? Promise.resolve(child.exitCode),
    };
  };
}

/** JSON-RPC over a daemon link, one message a line, as a relay would carry the browser's. */
export function lineClient(link: DaemonLink) {
  const messages: any[] = [];
  let waiters: Array<() => void> = [];
  let buffered = link.rest.toString('utf8');
  const take = (): void => {
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.trim()) continue;
      // Messages that queue up in the daemon go out as one line holding a JSON array, as frames do to a browser.
      const value = JSON.parse(line);
      if (Array.isArray(value)) messages.push(...value);
      else messages.push(value);
    }
    const w = waiters;
    waiters = [];
    for (const f of w) f();
  };
  link.socket.setEncoding('utf8');
  link.socket.on('data', (chunk: string) => {
    buffered += chunk;
    take();
  });
  link.socket.resume();
  take();
  let nextId = 1;
  const waitFor = (predicate: (m: any) => boolean, timeoutMs = 15_000): Promise<any> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`timed out; last: ${JSON.stringify(messages.slice(-2))}`)),
        timeoutMs,
      );
      const check = (): void => {
        const found = messages.find(predicate);
        if (found) {
          clearTimeout(timer);
          resolve(found);
        } else waiters.push(check);
      };
      check();
    });
  return {
    messages,
    waitFor,
    send: (message: unknown) => link.socket.write(`${JSON.stringify(message)}\n`),
    /** Ends the connection, as a relay does when its browser goes away. */
    close: () => link.socket.end(),
    request(method: string, params?: unknown): Promise<any> {
      const id = nextId++;
      link.socket.write(`${JSON.stringify({ id, method, params })}\n`);
      return waitFor((m) => m.id === id && m.method === undefined);
    },
  };
}

/** Waits until `check` holds, polling. */
export async function until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export { daemonAlive };
