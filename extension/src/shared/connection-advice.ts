/**
 * What each native-messaging failure means for the user and what they can do about it. Texts on the left are the
 * browser's own messages (Chrome's `lastError`, Firefox's `port.error`; see the native-messaging reference); the advice
 * is shown verbatim in the UI.
 */

/** A reason the connection is not up, with a next step for the user. */
export interface ConnectionAdvice {
  /** Short headline. */
  readonly title: string;
  /** What to do, in one or two sentences. */
  readonly action: string;
  /** A command to copy, when one fixes it. */
  readonly command?: string;
}

const unreadable: ConnectionAdvice = {
  title: 'The host sent a message the browser could not read.',
  action: 'A message was too large or corrupt (something printed to stdout?). Check the host with:',
  command: 'npx tether doctor',
};

/** The browser's texts and their advice; `install` is the command that registers the host for this extension. */
const table = (install: string): ReadonlyArray<readonly [string, ConnectionAdvice]> => [
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
    'Native host has exited.',
    {
      title: 'The Tether host started but stopped.',
      action: 'Usually Node.js is missing from the path the browser sees, or the config file is broken. Check with:',
      command: 'npx tether doctor',
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
    unreadable,
  ],
  ['Error when communicating with the native messaging host.', unreadable],
];

/**
 * Advice for a browser or host error text; a generic doctor hint for texts we do not know. `installCommand` is the
 * command that registers the host for this extension (`installCommandFor(chrome.runtime.id)`).
 */
export function adviceFor(reason: string | undefined, installCommand: string): ConnectionAdvice {
  if (reason) {
    for (const [text, advice] of table(installCommand)) if (reason.includes(text)) return advice;
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
    command: 'npx tether doctor',
  };
}
