/** What the tests of `tether mcp` share: private folders, a host initialized as the extension does, a command's output. */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect } from 'vitest';
import { PAGE_TOOLS } from '../agents/agent-host';
import { HOST_ENTRY, type HostProcess, startHost } from './host-process';

/** A new folder only this user may enter (the runtime folder must be 0700). */
export function privateDir(prefix = 'tether-runtime-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o700);
  return dir;
}

/** Initializes `h` as the extension does, declaring the page tools. */
export async function initializeAsExtension(h: HostProcess): Promise<void> {
  const init = await h.request('initialize', {
    clientInfo: { name: 'tether-extension', version: '1' },
    capabilities: { clientTools: PAGE_TOOLS },
  });
  expect(init.error).toBeUndefined();
  h.send({ method: 'initialized' });
}

/** Runs a command to its end with exactly `env`; resolves with its exit code and output. */
export function runCommand(
  command: string,
  args: string[],
  env: Record<string, string>,
  cwd?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Registers the file's afterEach that disposes its hosts (call once, at the top level) and returns `start`: a host in
 * a private runtime folder, initialized as the extension, a tab shared (thread thr_shared), and what
 * `tether mcp --print-config` prints from a shell that has TETHER_RUNTIME_DIR (as the browser had), so the printed
 * entry carries it to `tether mcp`.
 */
export function sharedTabHosts() {
  const hosts: HostProcess[] = [];
  afterEach(async () => {
    for (const h of hosts.splice(0)) await h.dispose();
  });
  return async function start() {
    const runtime = privateDir('tether-runtime-');
    const h = startHost({ env: { TETHER_RUNTIME_DIR: runtime } });
    hosts.push(h);
    await initializeAsExtension(h);
    expect((await h.request('bridge/mcp/share', { threadId: 'thr_shared', shared: true })).error).toBeUndefined();
    const printed = await runCommand(process.execPath, [HOST_ENTRY, 'mcp', '--print-config'], {
      PATH: process.env['PATH'] ?? '',
      TETHER_RUNTIME_DIR: runtime,
    });
    return { h, printed };
  };
}
