/**
 * The launcher the manifest points at: runs `tether host` with an absolute Node path, because a browser started from a
 * desktop (macOS Dock, a Linux menu) has a minimal PATH where `#!/usr/bin/env node` or an nvm Node is not found.
 */
import { ALLOW_DEV_EXTENSION_FLAG } from '../config/allowed-ids';
import type { Platform } from './system';

/** Quotes for POSIX sh inside double quotes (`\`, `"`, `$` and backtick are the only special characters there). */
function shQuote(value: string): string {
  return `"${value.replace(/[\\"$`]/g, (c) => `\\${c}`)}"`;
}

function shUnquote(quoted: string): string {
  return quoted.replace(/\\([\\"$`])/g, '$1');
}

/** Thrown when no launcher could run reliably from this path. */
export class LauncherPathError extends Error {
  override name = 'LauncherPathError';
}

// cmd.exe decodes a .cmd file in the console's OEM code page, not UTF-8, so a non-ASCII path (a user named José)
// would be garbled. Variables are expanded as Unicode, so such a path is written relative to one of these.
const PATH_VARIABLES = ['LOCALAPPDATA', 'APPDATA', 'USERPROFILE', 'ProgramFiles', 'ProgramData'] as const;

function envValue(env: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  const key = Object.keys(env).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : env[key];
}

/** Quotes for a .cmd line: Windows paths cannot hold `"`; `%` must be doubled or cmd expands it. */
function cmdQuote(value: string, env: Readonly<Record<string, string | undefined>>): string {
  if (value.includes('"'))
    throw new LauncherPathError(`cannot write a launcher for a path containing a double quote: ${value}`);
  let text = value.replace(/%/g, '%%');
  if (/[^\x20-\x7e]/.test(value)) {
    const base = PATH_VARIABLES.map((name) => ({ name, dir: envValue(env, name) })).find(
      ({ dir }) =>
        dir !== undefined &&
        !/[^\x20-\x7e]/.test(value.slice(dir.length)) &&
        value.toLowerCase().startsWith(`${dir.toLowerCase()}\\`),
    );
    if (!base) {
      throw new LauncherPathError(
        `cannot write a Windows launcher for ${value}: cmd.exe misreads non-ASCII characters in .cmd files. ` +
          'Move Node or the Tether checkout to a folder whose path is plain ASCII (or one under your user profile), then install again.',
      );
    }
    text = `%${base.name}%${value.slice(base.dir!.length).replace(/%/g, '%%')}`;
  }
  return `"${text}"`;
}

/** What a launcher runs; `allowDev` (a `tether install --dev` launcher) makes the host allow the development ids. */
export interface LauncherTarget {
  readonly nodePath: string;
  readonly hostScript: string;
  readonly allowDev: boolean;
}

const DEV_ARG = ` ${ALLOW_DEV_EXTENSION_FLAG}`;

/**
 * The launcher's text: a POSIX sh script (install makes it mode 755) or a .cmd file with CRLF line ends.
 * The browser's arguments (origin, or manifest path and add-on id; `--parent-window` on Windows) pass through.
 */
export function renderLauncher(
  platform: Platform,
  target: LauncherTarget,
  env: Readonly<Record<string, string | undefined>> = {},
): string {
  const dev = target.allowDev ? DEV_ARG : '';
  if (platform === 'win32') {
    return [
      '@rem Tether native messaging host launcher, written by `tether install`; `tether uninstall` removes it.',
      ...(target.allowDev
        ? ['@rem Written with --dev: the host also allows the development extension, whose key is public.']
        : []),
      `@${cmdQuote(target.nodePath, env)} ${cmdQuote(target.hostScript, env)} host${dev} %*`,
      '',
    ].join('\r\n');
  }
  return [
    '#!/bin/sh',
    '# Tether native messaging host launcher, written by `tether install`; `tether uninstall` removes it.',
    '# Node is named by absolute path: a browser started from the desktop may not have it on PATH.',
    ...(target.allowDev
      ? ['# Written with --dev: the host also allows the development extension, whose key is public.']
      : []),
    `exec ${shQuote(target.nodePath)} ${shQuote(target.hostScript)} host${dev} "$@"`,
    '',
  ].join('\n');
}

/** What a Tether launcher runs, or undefined when the text is not a Tether launcher. */
export function parseLauncher(
  platform: Platform,
  text: string,
  env: Readonly<Record<string, string | undefined>> = {},
): LauncherTarget | undefined {
  if (platform === 'win32') {
    const match = /^@"([^"]*)" "([^"]*)" host( --allow-dev-extension)? %\*\r?$/m.exec(text);
    const expand = (value: string) =>
      value.replace(/%%|%([A-Za-z_][\w()]*)%/g, (whole, name?: string) =>
        name === undefined ? '%' : (envValue(env, name) ?? whole),
      );
    return match
      ? { nodePath: expand(match[1]!), hostScript: expand(match[2]!), allowDev: match[3] !== undefined }
      : undefined;
  }
  const match = /^exec "((?:[^"\\]|\\.)*)" "((?:[^"\\]|\\.)*)" host( --allow-dev-extension)? "\$@"$/m.exec(text);
  return match
    ? { nodePath: shUnquote(match[1]!), hostScript: shUnquote(match[2]!), allowDev: match[3] !== undefined }
    : undefined;
}
