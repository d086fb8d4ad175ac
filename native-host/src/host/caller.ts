/**
 * Who started the host. Chrome-family browsers pass the calling origin `chrome-extension://ID/` (on Windows also
 * `--parent-window=N`); Firefox passes the host manifest's path and the add-on id. Only allowed ids may use the host:
 * the browser already checks its manifest, and this check also covers a host started by hand or by another program
 * that mimics a browser. The development ids count only when a development launcher passed ALLOW_DEV_EXTENSION_FLAG.
 */
import type { HostConfig } from '../config/defaults';
import {
  ALLOW_DEV_EXTENSION_FLAG,
  ALLOW_EXTENSION_FLAG,
  allowedExtensionIds,
  isDevExtensionId,
} from '../config/allowed-ids';

/** The browser's description of the caller. */
export type Caller =
  | { readonly browser: 'chrome'; readonly origin: string; readonly extensionId: string }
  | { readonly browser: 'firefox'; readonly manifestPath: string; readonly extensionId: string };

/** The outcome of checking the arguments the host was started with; `devAllowed`: the launcher allowed the development ids. */
export type CallerCheck =
  | { readonly ok: true; readonly caller: Caller; readonly devAllowed: boolean }
  | { readonly ok: false; readonly reason: string };

const CHROME_ORIGIN = /^chrome-extension:\/\/([a-p]{32})\/?$/;

/**
 * Parses the launcher's and the browser's arguments and checks the caller's id against the config's list, the ids the
 * launcher names (ALLOW_EXTENSION_FLAG) and the development ids when the launcher passed ALLOW_DEV_EXTENSION_FLAG.
 */
export function checkCaller(
  args: readonly string[],
  config: Pick<HostConfig, 'allowedExtensionIds'>,
  configFile: string,
): CallerCheck {
  // The launcher's own flags come first, before anything the browser passes.
  let devAllowed = false;
  const launcherIds: string[] = [];
  let start = 0;
  for (; start < args.length; start++) {
    const arg = args[start]!;
    if (arg === ALLOW_DEV_EXTENSION_FLAG) devAllowed = true;
    else if (arg.startsWith(`${ALLOW_EXTENSION_FLAG}=`)) launcherIds.push(arg.slice(ALLOW_EXTENSION_FLAG.length + 1));
    else break;
  }
  // A development id is let in only by the development flag, never by name.
  const named = launcherIds.filter((id) => id !== '' && !isDevExtensionId(id));
  const allowed = [...new Set([...allowedExtensionIds(config, devAllowed), ...named])];
  const positional = args.slice(start).filter((a) => !a.startsWith('--parent-window='));
  const [first, second] = positional;
  let caller: Caller;
  if (first?.startsWith('chrome-extension://')) {
    const match = CHROME_ORIGIN.exec(first);
    if (!match)
      return {
        ok: false,
        reason: `the caller origin ${JSON.stringify(first)} is not of the form chrome-extension://<32 letters a-p>/`,
      };
    caller = { browser: 'chrome', origin: first, extensionId: match[1]! };
  } else if (first !== undefined && second !== undefined && first.endsWith('.json')) {
    caller = { browser: 'firefox', manifestPath: first, extensionId: second };
  } else {
    return {
      ok: false,
      reason:
        `no caller in the arguments (${JSON.stringify(args)}): a browser starts the host with chrome-extension://ID/ ` +
        '(Chrome, Chromium, Edge, Brave, Vivaldi) or with a manifest path and an add-on id (Firefox)',
    };
  }
  if (!allowed.includes(caller.extensionId) && isDevExtensionId(caller.extensionId)) {
    return {
      ok: false,
      reason:
        `extension ${caller.extensionId} is the development build, whose key is public (manifests/dev-key.json), and this host ` +
        'was not installed for development. Fix: run `tether install --dev` (what `npm start` does) on a machine where you ' +
        'develop Tether, or load your own build and install with `tether install --extension-id ID`',
    };
  }
  if (!allowed.includes(caller.extensionId)) {
    return {
      ok: false,
      reason:
        `extension ${caller.extensionId} is not allowed to use this host (allowed: ${allowed.join(', ') || 'none'}). ` +
        `Fix: run \`tether install --extension-id ${caller.extensionId}\` (or add it to "allowedExtensionIds" in ${configFile} ` +
        "and run that install too, so the browsers' host manifests allow it)",
    };
  }
  return { ok: true, caller, devAllowed };
}
