/** `tether app-server --listen stdio [--data-dir DIR] [--model NAME]`: the reference app-server on stdin/stdout. */
import { resolve } from 'node:path';
import { redactSecrets } from '../log';
import { dataDir as defaultDataDir } from '../paths';
import { createJsonlTransport } from '../stdio-transport';
import { startAppServer } from './index';

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

/** Parses the arguments; returns a message for the user when they are wrong. */
export function parseArgs(args: string[]): CliOptions | { error: string } | { help: true } {
  const options: CliOptions = { dataDir: defaultDataDir(), jsonrpc: false };
  let listen: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string | undefined => inline ?? args[++i];
    switch (flag) {
      case '--help':
      case '-h':
        return { help: true };
      case '--listen':
        listen = value();
        break;
      case '--data-dir': {
        const dir = value();
        if (!dir) return { error: '--data-dir needs a folder' };
        options.dataDir = resolve(dir);
        break;
      }
      case '--memory':
        options.dataDir = null;
        break;
      case '--model': {
        const model = value();
        if (!model) return { error: '--model needs a name (e.g. scripted)' };
        options.model = model;
        break;
      }
      case '--jsonrpc':
        options.jsonrpc = true;
        break;
      default:
        return { error: `unknown argument "${arg}"` };
    }
  }
  if (listen !== undefined && listen !== 'stdio') return { error: `--listen ${listen} is not supported: only stdio is` };
  return options;
}

/** Runs the server until stdin ends; resolves with the exit code. */
export async function main(args: string[]): Promise<number> {
  const parsed = parseArgs(args);
  if ('help' in parsed) {
    process.stderr.write(USAGE + '\n');
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
  let session;
  try {
    session = startAppServer(transport, { dataDir: parsed.dataDir, ...(parsed.model ? { model: parsed.model } : {}), log });
  } catch (error) {
    transport.close();
    log(`cannot start: ${(error as Error).message}`);
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
