/** Command-line parsing for `tether install`, `uninstall` and `doctor`, with errors that show the usage. */
import type { BrowserId } from './browsers';
import { BROWSER_IDS, isBrowserId } from './browsers';
import type { Scope } from './locations';
import type { Platform } from './system';
import { type FlagSpec, parseFlags, UsageError } from '../cli-args';

export { UsageError };

/** Parsed options common to the three commands (each uses what applies to it). */
export interface InstallArgs {
  /** undefined: detect (install/doctor) or everything recorded (uninstall). */
  readonly browsers?: BrowserId[];
  readonly extensionIds: string[];
  readonly scope: Scope;
  readonly userDataDir?: string;
  readonly dryRun: boolean;
  /** `install --dev`: also allow the development extension (its key is public; `npm start` passes this). */
  readonly dev: boolean;
  readonly help: boolean;
}

/** Which flags a command accepts. */
export type CommandName = 'install' | 'uninstall' | 'doctor';

const FLAG_SPECS = {
  help: { type: 'boolean', short: 'h' },
  browser: { type: 'string', multiple: true },
  'extension-id': { type: 'string', multiple: true },
  dev: { type: 'boolean' },
  scope: { type: 'string' },
  'user-data-dir': { type: 'string' },
  'dry-run': { type: 'boolean' },
} as const satisfies Record<string, FlagSpec>;

type FlagName = keyof typeof FLAG_SPECS;

const FLAGS: Record<CommandName, readonly FlagName[]> = {
  install: ['help', 'browser', 'extension-id', 'dev', 'scope', 'user-data-dir', 'dry-run'],
  uninstall: ['help', 'browser', 'scope', 'user-data-dir', 'dry-run'],
  doctor: ['help', 'browser', 'extension-id', 'user-data-dir'],
};

/** Parses `args` for `command`; throws UsageError. Flags take `--flag value` or `--flag=value`. */
export function parseInstallArgs(command: CommandName, args: readonly string[], platform: Platform): InstallArgs {
  const specs = Object.fromEntries(FLAGS[command].map((name) => [name, FLAG_SPECS[name]])) as Partial<
    typeof FLAG_SPECS
  >;
  const flags = parseFlags(args, specs, `tether ${command}`);
  let browsers: BrowserId[] | undefined;
  for (const name of (flags.browser ?? []).flatMap((v) => v.split(',')).map((v) => v.trim().toLowerCase())) {
    if (name === 'all') browsers = [...BROWSER_IDS];
    else if (isBrowserId(name)) browsers = [...new Set([...(browsers ?? []), name])];
    else throw new UsageError(`unknown browser "${name}": use ${BROWSER_IDS.join(', ')} or all`);
  }
  const extensionIds = flags['extension-id'] ?? [];
  const scopeValue = flags.scope ?? 'user';
  if (scopeValue !== 'user' && scopeValue !== 'system')
    throw new UsageError(`--scope is "user" or "system", not "${scopeValue}"`);
  const scope: Scope = scopeValue;
  const userDataDir = flags['user-data-dir'];
  const dryRun = flags['dry-run'] ?? false;
  const dev = flags.dev ?? false;
  const help = flags.help ?? false;
  if (userDataDir !== undefined) {
    if (platform === 'win32') {
      throw new UsageError(
        '--user-data-dir is not supported on Windows: Chrome-family browsers there find hosts only through the registry',
      );
    }
    if (scope === 'system')
      throw new UsageError(
        '--user-data-dir registers a host for one profile; it cannot be combined with --scope system',
      );
    if (browsers?.includes('firefox')) {
      throw new UsageError(
        '--user-data-dir applies to Chrome-family browsers (chrome, chromium, edge, brave, vivaldi), not Firefox',
      );
    }
  }
  if (dev && scope === 'system') {
    throw new UsageError(
      "--dev allows the development extension, whose key is public, so it is for one developer's own account: it cannot be combined with --scope system",
    );
  }
  return {
    ...(browsers ? { browsers } : {}),
    extensionIds,
    scope,
    ...(userDataDir !== undefined ? { userDataDir } : {}),
    dryRun,
    dev,
    help,
  };
}
