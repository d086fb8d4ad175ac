/** Command-line parsing for `tether install`, `uninstall` and `doctor`, with errors that show the usage. */
import type { BrowserId } from './browsers';
import { BROWSER_IDS, isBrowserId } from './browsers';
import type { Scope } from './locations';
import type { Platform } from './system';

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

/** Bad command-line arguments; the CLI prints the message and the usage, and exits with 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Which flags a command accepts. */
export type CommandName = 'install' | 'uninstall' | 'doctor';

const FLAGS: Record<CommandName, readonly string[]> = {
  install: ['--browser', '--extension-id', '--dev', '--scope', '--user-data-dir', '--dry-run'],
  uninstall: ['--browser', '--scope', '--user-data-dir', '--dry-run'],
  doctor: ['--browser', '--extension-id', '--user-data-dir'],
};

/** Parses `args` for `command`; throws UsageError. Flags take `--flag value` or `--flag=value`. */
export function parseInstallArgs(command: CommandName, args: readonly string[], platform: Platform): InstallArgs {
  let browsers: BrowserId[] | undefined;
  const extensionIds: string[] = [];
  let scope: Scope = 'user';
  let userDataDir: string | undefined;
  let dryRun = false;
  let dev = false;
  let help = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--help' || arg === '-h') {
      help = true;
      continue;
    }
    const eq = arg.indexOf('=');
    const flag = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    if (!FLAGS[command].includes(flag)) {
      throw new UsageError(arg.startsWith('-') ? `unknown option ${flag} for tether ${command}` : `unexpected argument "${arg}"`);
    }
    if (flag === '--dry-run' || flag === '--dev') {
      if (eq > 0) throw new UsageError(`${flag} takes no value`);
      if (flag === '--dev') dev = true;
      else dryRun = true;
      continue;
    }
    const value = eq > 0 && arg.startsWith('--') ? arg.slice(eq + 1) : args[++i];
    if (value === undefined || value === '') throw new UsageError(`${flag} needs a value`);
    if (flag === '--browser') {
      for (const name of value.split(',').map((v) => v.trim().toLowerCase())) {
        if (name === 'all') browsers = [...BROWSER_IDS];
        else if (isBrowserId(name)) browsers = [...new Set([...(browsers ?? []), name])];
        else throw new UsageError(`unknown browser "${name}": use ${BROWSER_IDS.join(', ')} or all`);
      }
    } else if (flag === '--extension-id') extensionIds.push(value);
    else if (flag === '--scope') {
      if (value !== 'user' && value !== 'system') throw new UsageError(`--scope is "user" or "system", not "${value}"`);
      scope = value;
    } else if (flag === '--user-data-dir') userDataDir = value;
  }
  if (userDataDir !== undefined) {
    if (platform === 'win32') {
      throw new UsageError('--user-data-dir is not supported on Windows: Chrome-family browsers there find hosts only through the registry');
    }
    if (scope === 'system') throw new UsageError('--user-data-dir registers a host for one profile; it cannot be combined with --scope system');
    if (browsers?.includes('firefox')) {
      throw new UsageError('--user-data-dir applies to Chrome-family browsers (chrome, chromium, edge, brave, vivaldi), not Firefox');
    }
  }
  if (dev && scope === 'system') {
    throw new UsageError(
      '--dev allows the development extension, whose key is public, so it is for one developer\'s own account: it cannot be combined with --scope system',
    );
  }
  return { ...(browsers ? { browsers } : {}), extensionIds, scope, ...(userDataDir !== undefined ? { userDataDir } : {}), dryRun, dev, help };
}
