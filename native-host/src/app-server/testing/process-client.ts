/** A real `tether app-server` child process with a typed client on its stdio, for crash and CLI tests. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { AppServerClient } from '@tether/protocol';
import { createJsonlTransport } from '../../stdio-transport';
import { Recorder } from './harness';
import { tetherCommand } from './server-command';

/** A running server process and its client. */
export interface ServerProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly client: AppServerClient;
  readonly rec: Recorder;
  readonly stderr: () => string;
  /** Resolves with the exit code or signal once the process ended. */
  readonly exited: Promise<number | NodeJS.Signals>;
}

/** Spawns `tether app-server --listen stdio` with `args`, and initializes a client. */
export async function spawnServer(args: string[], env: Record<string, string> = {}): Promise<ServerProcess> {
  const [command, ...prefix] = await tetherCommand();
  const child = spawn(command!, [...prefix, 'app-server', '--listen', 'stdio', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | NodeJS.Signals>((resolve) =>
    child.on('exit', (code, signal) => resolve(signal ?? code ?? -1)),
  );
  const client = new AppServerClient(createJsonlTransport(child.stdout, child.stdin, { name: 'app-server' }));
  const rec = new Recorder(client);
  await client.initialize({ clientInfo: { name: 'process-test', version: '1' } }, { timeoutMs: 60_000 });
  return { child, client, rec, stderr: () => stderr, exited };
}
