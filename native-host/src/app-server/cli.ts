/** `tether app-server --listen stdio [--data-dir DIR] [--model NAME]`: the reference app-server on stdin/stdout. */
import { resolve } from 'node:path';
import { type FlagSpec, type Flags, parseFlags, UsageError } from '../cli-args';
import { redactSecrets } from '../log';
import { dataDir as defaultDataDir } from '../paths';
import { createJsonlTransport } from '../stdio-transport';
import { type AppServerSession, startAppServer } from './index';
import { errorMessage } from '@tether/protocol/errors';

const USAGE = `Usage: tether app-server --listen stdio [--data-dir DIR | --memory] [--model NAME] [--jsonrpc]

Serves the Tether app-server protocol on stdin/stdout, one JSON message per line. stdout carries protocol only;
logs go to stderr.
  --data-dir DIR  where threads are journaled (default: ${defaultDataDir()})
  --memory        keep threads in memory only (nothing is written)
  --model NAME    model of new threads: scripted (default), openai, or a model id of the OpenAI-compatible endpoint
                  set by TETHER_OPENAI_BASE_URL / TETHER_OPENAI_API_KEY / TETHER_OPENAI_MODEL
  --jsonrpc       add "jsonrpc":"2.0" to every message sent`;

interface CliOptions {
  dataDir: string | null;
  model?: string;
  jsonrpc: boolean;
}

const FLAGS = {
  help: { type: 'boolean', short: 'h' },
  listen: { type: 'string', value: 'a transport (stdio)' },
  'data-dir': { type: 'string', value: 'a folder' },
  memory: { type: 'boolean' },
  model: { type: 'string', value: 'a name (e.g. scripted)' },
  jsonrpc: { type: 'boolean' },
} as const satisfies Record<string, FlagSpec>;

/** Parses the arguments; returns a message for the user when they are wrong. */
export function parseArgs(args: string[]): CliOptions | { error: string } | { help: true } {
  let flags: Flags<typeof FLAGS>;
  try {
    flags = parseFlags(args, FLAGS, 'tether app-server');
  } catch (error) {
    if (error instanceof UsageError) return { error: error.message };
    throw error;
  }
  if (flags.help) return { help: true };
  if (flags.listen !== undefined && flags.listen !== 'stdio') {
    return { error: `--listen ${flags.listen} is not supported: only stdio is` };
  }
  if (flags.memory && flags['data-dir'] !== undefined) return { error: '--memory and --data-dir cannot be combined' };
  const dataDir = flags.memory ? null : flags['data-dir'] !== undefined ? resolve(flags['data-dir']) : defaultDataDir();
  return { dataDir, ...(flags.model === undefined ? {} : { model: flags.model }), jsonrpc: flags.jsonrpc ?? false };
}

/** Runs the server until stdin ends; resolves with the exit code. */
export async function main(args: string[]): Promise<number> {
  const parsed = parseArgs(args);
  if ('help' in parsed) {
    process.stderr.write(`${USAGE}\n`);
    return 0;
  }
  if ('error' in parsed) {
    process.stderr.write(`tether app-server: ${parsed.error}\n\n${USAGE}\n`);
    return 2;
  }
  const log = (line: string): void => {
    process.stderr.write(`tether app-server: ${redactSecrets(line)}\n`);
  };
  const transport = createJsonlTransport(process.stdin, process.stdout, { name: 'client', endWritable: false });
  let session: AppServerSession;
  try {
    session = startAppServer(transport, {
      dataDir: parsed.dataDir,
      ...(parsed.model ? { model: parsed.model } : {}),
      log,
    });
  } catch (error) {
    transport.close();
    log(`cannot start: ${errorMessage(error)}`);
    return 1;
  }
  log(`serving on stdio; data ${parsed.dataDir ?? 'in memory only'}`);
  const stop = (): void => void session.close();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  await session.closed;
  process.off('SIGTERM', stop);
  process.off('SIGINT', stop);
  await transport.flushed();
  return 0;
}
