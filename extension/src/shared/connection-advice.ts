/**
 * What each native-messaging failure means for the user and what they can do about it. Texts on the left are the
 * browser's own messages (Chrome's `lastError`, Firefox's `port.error`; see the native-messaging reference); the advice
 * is shown verbatim in the UI.
 */
import type { AgentFix, VersionSkew } from './records';

/** A reason the connection is not up, with a next step for the user. */
export interface ConnectionAdvice {
  /** Short headline. */
  readonly title: string;
  /** What to do, in one or two sentences. */
  readonly action: string;
  /** A command to copy, when one fixes it. */
  readonly command?: string;
}

/** The commands advice may print, for this extension (see install-command.ts). */
export interface AdviceCommands {
  /** Registers the host for this extension. */
  readonly install: string;
  /** Checks the installation. */
  readonly doctor: string;
}

/** The one text Chrome gives for a host process that ended, whether it never started right or ran for hours. */
const HOST_EXITED = 'Native host has exited.';

const unreadable = (doctor: string): ConnectionAdvice => ({
  title: 'The host sent a message the browser could not read.',
  action: 'A message was too large or corrupt (something printed to stdout?). Check the host with:',
  command: doctor,
});

/** The browser's texts and their advice, with the commands for this extension. */
const table = ({ install, doctor }: AdviceCommands): ReadonlyArray<readonly [string, ConnectionAdvice]> => [
  [
    'Specified native messaging host not found.',
    {
      title: 'The Tether host is not installed for this browser.',
      action: 'Register it by running this in a terminal, then press Retry.',
      command: install,
    },
  ],
  [
    // Firefox's one text for a host that is not registered, not allowed for this add-on id, or has a broken manifest.
    'No such native application',
    {
      title: 'The Tether host is not registered for this browser (or not for this add-on).',
      action: 'Register it by running this in a terminal, then press Retry.',
      command: install,
    },
  ],
  [
    'Access to the specified native messaging host is forbidden.',
    {
      title: 'The Tether host is registered for a different extension id.',
      action: 'Register it again for this extension, then press Retry.',
      command: install,
    },
  ],
  [
    // Only right for a host that never connected: one that was working and stopped gets hostStopped() instead.
    HOST_EXITED,
    {
      title: 'The Tether host started but stopped.',
      action: 'Usually Node.js is missing from the path the browser sees, or the config file is broken. Check with:',
      command: doctor,
    },
  ],
  [
    'Invalid native messaging host name specified.',
    {
      title: 'This build of the extension asks for an invalid host name.',
      action: 'Reinstall the extension from a release build.',
    },
  ],
  [
    // Firefox: a frame over its 1 MiB limit from the host.
    'Native application tried to send a message of',
    unreadable(doctor),
  ],
  ['Error when communicating with the native messaging host.', unreadable(doctor)],
];

/** "12 s", "3 min", "2 h": how long a connection had been up, in words. */
function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s} s`;
  const min = Math.round(s / 60);
  return min < 120 ? `${min} min` : `${Math.round(min / 60)} h`;
}

/** A host that was connected (for `upForMs`) and then ended: Node and the install were fine a moment ago. */
function hostStopped(upForMs: number, doctor: string): ConnectionAdvice {
  return {
    title: 'The Tether host stopped.',
    action: `It had been running for ${duration(upForMs)}; Tether starts it again by itself. If it keeps stopping, the host log says why (doctor shows where it is):`,
    command: doctor,
  };
}

/**
 * Advice for a browser or host error text; a generic doctor hint for texts we do not know. `commands` are this
 * extension's (`installCommandFor`, `doctorCommandFor`); `upForMs` is how long the connection this failure ended had
 * been up (absent when the host never connected).
 */
export function adviceFor(reason: string | undefined, commands: AdviceCommands, upForMs?: number): ConnectionAdvice {
  if (reason) {
    const known = table(commands).find(([text]) => reason.includes(text));
    // A message the browser could not read is still that, even from a host that was working.
    if (upForMs !== undefined && (!known || known[0] === HOST_EXITED)) return hostStopped(upForMs, commands.doctor);
    if (known) return known[1];
    if (/native messaging/i.test(reason) && /not (enabled|allowed)|policy/i.test(reason)) {
      return {
        title: 'Native messaging is blocked by a browser policy.',
        action: 'Ask your administrator to allow it.',
      };
    }
  }
  return {
    title: reason ?? 'Not connected to the Tether host.',
    action: 'Press Retry. If it keeps failing, check the host with:',
    command: commands.doctor,
  };
}

/** Advice for a host and extension that speak protocols that do not overlap; `command` fixes it (skewCommandFor). */
export function skewAdvice(skew: VersionSkew, command: string): ConnectionAdvice {
  // Builds of one version can still differ in protocol (a development checkout): then the versions say nothing.
  const differ = skew.hostVersion !== skew.extensionVersion;
  const host = `the Tether host${differ ? ` (${skew.hostVersion})` : ''}`;
  const extension = `this extension${differ ? ` (${skew.extensionVersion})` : ''}`;
  const sentence = (older: string, newer: string) =>
    `${older[0]!.toUpperCase()}${older.slice(1)} is older than ${newer}.`;
  if (skew.older === 'host') {
    return {
      title: sentence(host, extension),
      action: 'Update the host by running this in a terminal, then press Retry.',
      command,
    };
  }
  return {
    title: sentence(extension, host),
    action: `Update the extension${differ ? ` to ${skew.hostVersion} or later` : ''}, or install the host that matches this extension, then press Retry:`,
    command,
  };
}

/** Advice for a backend whose agent is older than its adapter supports, or newer than this Tether speaks. */
export function agentFixAdvice(fix: AgentFix): ConnectionAdvice {
  return fix.olderSide === 'agent'
    ? {
        title: 'The agent behind Tether is older than this Tether supports.',
        action: 'Update it by running this in a terminal, then press Retry.',
        command: fix.command,
      }
    : {
        title: 'This Tether is older than the agent behind it.',
        action: 'Update the Tether host by running this in a terminal, then press Retry.',
        command: fix.command,
      };
}

/** The line a page shows while the host serves in-process because the daemon could not run (bridge/hello's reason). */
export function daemonUnavailableNote(reason: string): string {
  return `Turns stop when the browser closes: the Tether daemon could not run (${reason.replace(/[.\s]+$/, '')}), so the browser's host runs the agent itself. tether doctor says more.`;
}

/** Orders two dotted versions by their numbers (0.10.0 after 0.9.2); what follows a `-` or `+` is ignored. */
function compareVersions(a: string, b: string): number {
  const parts = (v: string) => (v.split(/[-+]/)[0] ?? '').split('.').map((n) => Number.parseInt(n, 10) || 0);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * The line a page shows while the daemon that runs the agent is of another version than the host this browser
 * started (bridge/hello's `daemonVersion` beside `hostVersion`), or undefined when they match or no daemon serves.
 * An older daemon goes on serving so its running turns are not cut short, and is replaced once it is idle.
 */
export function daemonUpdateNote(
  hostVersion: string | undefined,
  daemonVersion: string | undefined,
): string | undefined {
  if (hostVersion === undefined || daemonVersion === undefined || hostVersion === daemonVersion) return undefined;
  if (compareVersions(daemonVersion, hostVersion) > 0) {
    return `The agent runs Tether ${daemonVersion}, newer than this browser's Tether host (${hostVersion}): install Tether again to update the host.`;
  }
  return `Tether was updated to ${hostVersion}. Version ${daemonVersion} keeps the agent running so no turn is cut short; ${hostVersion} starts when the agent is idle.`;
}
