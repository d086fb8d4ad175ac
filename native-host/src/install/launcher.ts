/**
 * The launcher the manifest points at: runs `tether host` with an absolute Node path, because a browser started from a
 * desktop (macOS Dock, a Linux menu) has a minimal PATH where `#!/usr/bin/env node` or an nvm Node is not found.
 */
import { ALLOW_DEV_EXTENSION_FLAG, ALLOW_EXTENSION_FLAG } from '../config/allowed-ids';
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

/**
 * What a launcher runs; `allowDev` (a `tether install --dev` launcher) makes the host allow the development ids, and
 * `allowIds` the ids install allowed in the manifests, so `tether install --extension-id ID` alone lets ID in.
 */
export interface LauncherTarget {
  readonly nodePath: string;
  readonly hostScript: string;
  readonly allowDev: boolean;
  readonly allowIds?: readonly string[];
}

const DEV_ARG = ` ${ALLOW_DEV_EXTENSION_FLAG}`;
/** A character of an extension id as install accepts them (ids.ts): safe unquoted in sh and cmd. */
const ID_CHAR = String.raw`[\w.@{}-]`;
const SAFE_ID = new RegExp(`^${ID_CHAR}+$`);
/** The launcher's flags in the line it writes (the flags hold only letters and dashes: no regex escaping needed). */
const HOST_ARGS_PART = `host(${DEV_ARG})?((?: ${ALLOW_EXTENSION_FLAG}=${ID_CHAR}+)*)`;

/** The launcher's own arguments before the browser's: the development flag, then one flag per allowed id. */
function hostArgs(target: LauncherTarget): string {
  const ids = target.allowIds ?? [];
  for (const id of ids)
    if (!SAFE_ID.test(id))
      throw new LauncherPathError(`cannot pass the extension id ${JSON.stringify(id)} to the host`);
  return `${target.allowDev ? DEV_ARG : ''}${ids.map((id) => ` ${ALLOW_EXTENSION_FLAG}=${id}`).join('')}`;
}

function parsedIds(part: string | undefined): { allowIds?: string[] } {
  const ids = (part ?? '')
    .split(' ')
    .filter(Boolean)
    .map((flag) => flag.slice(ALLOW_EXTENSION_FLAG.length + 1));
  return ids.length > 0 ? { allowIds: ids } : {};
}

/**
 * The launcher's text: a POSIX sh script (install makes it mode 755) or a .cmd file with CRLF line ends.
 * The browser's arguments (origin, or manifest path and add-on id; `--parent-window` on Windows) pass through.
 */
export function renderLauncher(
  platform: Platform,
  target: LauncherTarget,
  env: Readonly<Record<string, string | undefined>> = {},
): string {
  const dev = hostArgs(target);
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

/** The line a .cmd launcher runs, and the one a sh launcher runs: Node, the host script, the launcher's flags. */
const CMD_LINE = new RegExp(String.raw`^@"([^"]*)" "([^"]*)" ${HOST_ARGS_PART} %\*\r?$`, 'm');
const SH_LINE = new RegExp(String.raw`^exec "((?:[^"\\]|\\.)*)" "((?:[^"\\]|\\.)*)" ${HOST_ARGS_PART} "\$@"$`, 'm');

/** What a Tether launcher runs, or undefined when the text is not a Tether launcher. */
export function parseLauncher(
  platform: Platform,
  text: string,
  env: Readonly<Record<string, string | undefined>> = {},
): LauncherTarget | undefined {
  const windows = platform === 'win32';
  const match = (windows ? CMD_LINE : SH_LINE).exec(text);
  if (!match) return undefined;
  const unquote = windows
    ? (value: string) =>
        value.replace(/%%|%([A-Za-z_][\w()]*)%/g, (whole, name?: string) =>
          name === undefined ? '%' : (envValue(env, name) ?? whole),
        )
    : shUnquote;
  return {
    nodePath: unquote(match[1]!),
    hostScript: unquote(match[2]!),
    allowDev: match[3] !== undefined,
    ...parsedIds(match[4]),
  };
}
