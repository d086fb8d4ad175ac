/**
 * The host's package name and the one builder of the commands Tether prints for the user (side panel,
 * options page, `tether doctor`). The extension and the host cannot import each other, so the wording lives here.
 */

/** The npm package users install the host from (its bin is `tether`). */
export const HOST_PACKAGE = 'tether-bridge';

/** The `tether` subcommands users are told to run. */
export type HostVerb = 'install' | 'doctor' | 'uninstall';

/** Who runs the command: a user of the published package, or a developer in a checkout of the repository. */
export interface CommandContext {
  /** How this user runs `tether` when known (doctor: `tether` for a global install); otherwise from `dev`. */
  readonly program?: string;
  /**
   * The development build (its key is public): a developer with a checkout, who runs the checkout's `tether` and
   * installs with `--dev`. Everyone else runs the published package through npx.
   */
  readonly dev?: boolean;
  /** Pins the package version (`npx tether-bridge@1.2.3 ...`); ignored for the development flow. */
  readonly version?: string;
}

/** Options of one command. */
export interface CommandOptions {
  /** `--browser ID` */
  readonly browser?: string;
  /** `--extension-id ID` (install and doctor; never for the development build, which `--dev` covers). */
  readonly extensionId?: string;
  /** `--user-data-dir DIR` */
  readonly userDataDir?: string;
}

function quote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `"${value.replace(/(["\\$`])/g, '\\$1')}"`;
}

/** The command line that runs `tether VERB` for this user, e.g. `npx tether-bridge install --extension-id abc`. */
export function hostCommand(verb: HostVerb, context: CommandContext = {}, options: CommandOptions = {}): string {
  const program =
    context.program ??
    (context.dev ? 'npx tether' : `npx ${HOST_PACKAGE}${context.version === undefined ? '' : `@${context.version}`}`);
  const args: string[] = [verb];
  if (verb === 'install' && context.dev) args.push('--dev');
  if (options.browser !== undefined) args.push('--browser', options.browser);
  if (options.extensionId !== undefined && !context.dev && verb !== 'uninstall')
    args.push('--extension-id', options.extensionId);
  if (options.userDataDir !== undefined) args.push('--user-data-dir', quote(options.userDataDir));
  return [program, ...args].join(' ');
}
