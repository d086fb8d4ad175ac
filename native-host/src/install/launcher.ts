/**
 * The launcher the manifest points at: runs `tether host` with an absolute Node path, because a browser started from a
 * desktop (macOS Dock, a Linux menu) has a minimal PATH where `#!/usr/bin/env node` or an nvm Node is not found.
 */
import type { Platform } from './system';

/** Quotes for POSIX sh inside double quotes (`\`, `"`, `$` and backtick are the only special characters there). */
function shQuote(value: string): string {
  return `"${value.replace(/[\\"$`]/g, (c) => `\\${c}`)}"`;
}

function shUnquote(quoted: string): string {
  return quoted.replace(/\\([\\"$`])/g, '$1');
}

/** Quotes for a .cmd line: Windows paths cannot hold `"`; `%` must be doubled or cmd expands it. */
function cmdQuote(value: string): string {
  if (value.includes('"')) throw new Error(`cannot write a launcher for a path containing a double quote: ${value}`);
  return `"${value.replace(/%/g, '%%')}"`;
}

/**
 * The launcher's text: a POSIX sh script (install makes it mode 755) or a .cmd file with CRLF line ends.
 * The browser's arguments (origin, or manifest path and add-on id; `--parent-window` on Windows) pass through.
 */
export function renderLauncher(platform: Platform, nodePath: string, hostScript: string): string {
  if (platform === 'win32') {
    return [
      '@rem Tether native messaging host launcher, written by `tether install`; `tether uninstall` removes it.',
      `@${cmdQuote(nodePath)} ${cmdQuote(hostScript)} host %*`,
      '',
    ].join('\r\n');
  }
  return [
    '#!/bin/sh',
    '# Tether native messaging host launcher, written by `tether install`; `tether uninstall` removes it.',
    '# Node is named by absolute path: a browser started from the desktop may not have it on PATH.',
    `exec ${shQuote(nodePath)} ${shQuote(hostScript)} host "$@"`,
    '',
  ].join('\n');
}

/** The Node and script a Tether launcher runs, or undefined when the text is not a Tether launcher. */
export function parseLauncher(platform: Platform, text: string): { nodePath: string; hostScript: string } | undefined {
  if (platform === 'win32') {
    const match = /^@"([^"]*)" "([^"]*)" host %\*\r?$/m.exec(text);
    return match ? { nodePath: match[1]!.replace(/%%/g, '%'), hostScript: match[2]!.replace(/%%/g, '%') } : undefined;
  }
  const match = /^exec "((?:[^"\\]|\\.)*)" "((?:[^"\\]|\\.)*)" host "\$@"$/m.exec(text);
  return match ? { nodePath: shUnquote(match[1]!), hostScript: shUnquote(match[2]!) } : undefined;
}
