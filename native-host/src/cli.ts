/**
 * The `tether` command: parses the first words of argv and hands the rest to the module that owns the command.
 * Modules are imported lazily; `tether host` (started by the browser on every connection) does not even come here:
 * main.ts sends it straight to host/cli.ts, loaded with the entry point itself.
 */
import { hostArguments } from './host/argv';
import { TETHER_VERSION } from './version';

/** A command: its one-line summary and its entry point (returns the exit code). */
interface Command {
  readonly usage: string;
  readonly summary: string;
  readonly run: (args: string[]) => Promise<number>;
}

const commands: Record<string, Command> = {
  host: {
    usage: 'tether host [--allow-dev-extension] [chrome-extension://ID/ | MANIFEST ADDON_ID]',
    summary: 'Native messaging host: what the browser starts (reads and writes framed messages).',
    run: async (args) => (await import('./host/cli')).main(args),
  },
  'app-server': {
    usage: 'tether app-server --listen stdio [--data-dir DIR] [--model NAME]',
    summary: 'Reference app-server on stdin/stdout (JSONL); also generate-json-schema / generate-ts --out DIR.',
    run: async (args) =>
      args[0] === 'generate-json-schema' || args[0] === 'generate-ts'
        ? (await import('./schema-commands')).main(args)
        : (await import('./app-server/cli')).main(args),
  },
  mcp: {
    usage: 'tether mcp [--browser NAME] [--print-config]',
    summary:
      "Stdio MCP server giving an agent the browser's page tools through the running Tether host (each call asks in the side panel).",
    run: async (args) => (await import('./mcp/cli')).main(args),
  },
  daemon: {
    usage: 'tether daemon [run|status|stop|restart] [--idle-exit SECONDS]',
    summary:
      'The per-user daemon that keeps agents and their turns running while browsers come and go (status by default).',
    run: async (args) => (await import('./daemon/cli')).main(args),
  },
  install: {
    usage:
      'tether install [--browser NAME|all] [--extension-id ID]... [--dev] [--scope user|system] [--user-data-dir DIR] [--dry-run]',
    summary: 'Register the native messaging host with every browser found (or the ones named).',
    run: async (args) => (await import('./install/cli')).install(args),
  },
  uninstall: {
    usage: 'tether uninstall [--browser NAME|all] [--scope user|system] [--user-data-dir DIR] [--dry-run]',
    summary: 'Remove exactly what `tether install` wrote.',
    run: async (args) => (await import('./install/cli')).uninstall(args),
  },
  doctor: {
    usage: 'tether doctor [--browser NAME|all] [--extension-id ID]... [--user-data-dir DIR]',
    summary: 'Check every install and start the host as a browser would; explains each failure and its fix.',
    run: async (args) => (await import('./install/cli')).doctor(args),
  },
  debug: {
    usage: 'tether debug app-server send-message TEXT',
    summary: 'Run one turn against the reference app-server and print every message exchanged.',
    run: async (args) => (await import('./app-server/debug')).main(args),
  },
};

function help(): string {
  const rows = Object.values(commands).map((c) => `  ${c.usage}\n      ${c.summary}`);
  return [
    `tether ${TETHER_VERSION}: drive a local AI agent from your browser's side panel.`,
    '',
    'Usage:',
    ...rows,
    '  tether --help | --version',
    '',
    'Logs go to stderr or to the log file that `tether doctor` names; stdout carries protocol messages only.',
  ].join('\n');
}

/** Runs the command line and returns the exit code. */
export async function run(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    process.stdout.write(`${help()}\n`);
    return first === undefined ? 1 : 0;
  }
  if (first === '--version' || first === '-v') {
    process.stdout.write(`${TETHER_VERSION}\n`);
    return 0;
  }
  // `host`, or the browser's own arguments (a manifest may point straight at this command): see host/argv.ts.
  const hostArgs = hostArguments(argv);
  if (hostArgs) return commands.host!.run(hostArgs);
  const command = Object.hasOwn(commands, first) ? commands[first] : undefined;
  if (!command) {
    process.stderr.write(`tether: unknown command "${first}"\n\n${help()}\n`);
    return 2;
  }
  return command.run(rest);
}
