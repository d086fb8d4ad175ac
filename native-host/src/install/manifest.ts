/**
 * The host manifest: rendered from the templates in manifests/ and checked by doctor against the rules Chromium and
 * Firefox apply (each problem carries the error text the browser shows for it).
 */
import chromeTemplate from '../../../manifests/chrome-host.template.json';
import firefoxTemplate from '../../../manifests/firefox-host.template.json';
import type { Family } from './browsers';
import { chromeOrigin } from './ids';
import type { Platform } from './system';
import { pathFor } from './system';
import { errorMessage } from '@tether/protocol/errors';

/** The native messaging host name; the manifest file is `<HOST_NAME>.json`. */
export const HOST_NAME = 'dev.tether.bridge';

/** The kinds of failure a browser reports differently. */
export type FailureKind = 'notFound' | 'forbidden' | 'invalidName' | 'exited' | 'communication';

/** What `chrome.runtime.lastError.message` says for each failure (shared/reference/native-messaging.md). */
export const CHROME_ERRORS: Readonly<Record<FailureKind, string>> = {
  notFound: 'Specified native messaging host not found.',
  forbidden: 'Access to the specified native messaging host is forbidden.',
  invalidName: 'Invalid native messaging host name specified.',
  exited: 'Native host has exited.',
  communication: 'Error when communicating with the native messaging host.',
};

/** What Firefox reports: a missing, invalid or forbidding manifest all read as "No such native application". */
export const FIREFOX_ERRORS: Readonly<Record<FailureKind, string>> = {
  notFound: `No such native application ${HOST_NAME}`,
  forbidden: `No such native application ${HOST_NAME}`,
  invalidName: `No such native application ${HOST_NAME}`,
  exited: 'An unexpected error occurred',
  communication: 'An unexpected error occurred',
};

/** The text the extension sees for a failure in a browser of this family. */
export function browserErrorText(family: Family, kind: FailureKind): string {
  return (family === 'chrome' ? CHROME_ERRORS : FIREFOX_ERRORS)[kind];
}

/**
 * The manifest text for a family: the template with `path` and the allowed list filled in, keys in template order,
 * two-space indented, newline-terminated (written as UTF-8 without a BOM).
 */
export function renderManifest(family: Family, launcherPath: string, allowed: readonly string[]): string {
  const manifest =
    family === 'chrome'
      ? { ...chromeTemplate, path: launcherPath, allowed_origins: allowed.map(chromeOrigin) }
      : { ...firefoxTemplate, path: launcherPath, allowed_extensions: [...allowed] };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** A rule a manifest breaks, what the browser then says, and why. */
export interface ManifestProblem {
  readonly message: string;
  readonly kind: FailureKind;
}

/** What doctor learns from a manifest file. */
export interface ManifestReport {
  readonly problems: ManifestProblem[];
  /** The `path` field when it is a string. */
  readonly hostPath?: string;
  /** The allowed ids (Chrome: taken from the origins) when the list is well-formed. */
  readonly allowedIds: string[];
}

/** Whether a host name follows Chromium's rule: lowercase letters, digits, `_` and single inner dots. */
export function isValidHostName(name: string): boolean {
  return /^[a-z0-9_]+(\.[a-z0-9_]+)*$/.test(name);
}

/**
 * Checks a manifest's text the way the browser does when `connectNative(HOST_NAME)` runs. `fileName` is the manifest's
 * base name (on Windows the registry decides the file, so any name is fine there).
 */
export function checkManifest(text: string, fileName: string, family: Family, platform: Platform): ManifestReport {
  const problems: ManifestProblem[] = [];
  const notFound = (message: string) => problems.push({ message, kind: 'notFound' });
  let parsed: unknown;
  try {
    // The browser rejects a BOM as invalid JSON, so no BOM-stripping here.
    parsed = JSON.parse(text);
  } catch (error) {
    notFound(`the manifest is not valid JSON (${errorMessage(error)})`);
    return { problems, allowedIds: [] };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    notFound('the manifest is not a JSON object');
    return { problems, allowedIds: [] };
  }
  const m = parsed as Record<string, unknown>;
  if (typeof m.name !== 'string' || !isValidHostName(m.name)) {
    problems.push({
      message: `"name" is ${JSON.stringify(m.name)}; it must be "${HOST_NAME}" (lowercase letters, digits, "." and "_")`,
      kind: 'invalidName',
    });
  } else if (m.name !== HOST_NAME) {
    notFound(`"name" is "${m.name}"; it must match the file name and what the extension asks for: "${HOST_NAME}"`);
  }
  if (platform !== 'win32' && fileName !== `${HOST_NAME}.json`) {
    notFound(`the file is named "${fileName}"; it must be "${HOST_NAME}.json"`);
  }
  if (typeof m.description !== 'string' || m.description.length === 0) notFound('"description" is missing or empty');
  if (m.type !== 'stdio') notFound(`"type" is ${JSON.stringify(m.type)}; it must be "stdio"`);
  let hostPath: string | undefined;
  if (typeof m.path !== 'string' || m.path.length === 0) notFound('"path" is missing');
  else {
    hostPath = m.path;
    // Windows allows a path relative to the manifest; Linux and macOS require an absolute one.
    if (platform !== 'win32' && !pathFor(platform).isAbsolute(m.path)) notFound(`"path" (${m.path}) is not absolute`);
  }
  const allowedIds: string[] = [];
  if (family === 'chrome') {
    const origins = m.allowed_origins;
    if (!Array.isArray(origins) || origins.some((o) => typeof o !== 'string')) {
      notFound('"allowed_origins" is missing or not a list of strings');
    } else {
      for (const origin of origins as string[]) {
        const match = /^chrome-extension:\/\/([a-p]{32})\/$/.exec(origin);
        if (match) allowedIds.push(match[1]!);
        else if (origin.includes('*')) notFound(`"allowed_origins" holds a wildcard (${origin}); list each extension`);
        else if (/^chrome-extension:\/\/[a-p]{32}$/.test(origin)) notFound(`origin ${origin} lacks its trailing slash`);
        else
          notFound(
            `"allowed_origins" holds ${JSON.stringify(origin)}, which is not chrome-extension://<32 letters a-p>/`,
          );
      }
    }
  } else {
    const ids = m.allowed_extensions;
    if (!Array.isArray(ids) || ids.some((i) => typeof i !== 'string'))
      notFound('"allowed_extensions" is missing or not a list of strings');
    else allowedIds.push(...(ids as string[]));
  }
  return { problems, hostPath, allowedIds };
}
