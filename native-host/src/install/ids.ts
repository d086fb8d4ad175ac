/** Extension ids: the development ids from manifests/dev-key.json, and validation of the ones users add. */
import { DEV_EXTENSION_ID, DEV_FIREFOX_ADDON_ID, isDevExtensionId } from '../config/allowed-ids';
import type { Family } from './browsers';

export { DEV_EXTENSION_ID, DEV_FIREFOX_ADDON_ID, isDevExtensionId };

const CHROME_ID = /^[a-p]{32}$/;
// addons.mozilla.org accepts a {GUID} or an email-like id.
const FIREFOX_UUID = /^\{[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\}$/;
const FIREFOX_EMAIL = /^[a-zA-Z0-9._-]*@[a-zA-Z0-9._-]+$/;

/** Allowed ids per manifest family (development ids first, when allowed). */
export interface AllowedIds {
  readonly chrome: readonly string[];
  readonly firefox: readonly string[];
}

/** An `--extension-id` value that is neither a Chrome extension id nor a Firefox add-on id. */
export class InvalidExtensionIdError extends Error {
  override name = 'InvalidExtensionIdError';
  constructor(
    readonly value: string,
    detail: string,
  ) {
    super(
      `"${value}" is not a valid extension id: ${detail}. ` +
        'Give a Chrome extension id (32 letters a-p, as shown on chrome://extensions, e.g. abcdefghijklmnopabcdefghijklmnop) ' +
        'or a Firefox add-on id (email-like, e.g. tether@example.org, or a {uuid}); `--dev` allows the development build.',
    );
  }
}

/**
 * Classifies one `--extension-id` value. Accepts `chrome-extension://ID/` too (people paste origins), and
 * rejects ids that could only be typos with a message saying what is wrong.
 */
export function parseExtensionId(raw: string): { family: Family; id: string } {
  const value = raw.trim();
  const origin = /^chrome-extension:\/\/([^/]*)\/?$/.exec(value);
  const id = origin ? origin[1]! : value;
  if (CHROME_ID.test(id)) return { family: 'chrome', id };
  if (FIREFOX_UUID.test(id) || FIREFOX_EMAIL.test(id)) return { family: 'firefox', id };
  // A run of letters near 32 long was meant as a Chrome id: say what is off rather than "matches neither form".
  if (origin || /^[a-zA-Z]{24,40}$/.test(id)) {
    const detail =
      id.length !== 32
        ? `a Chrome extension id has 32 letters, this has ${id.length}`
        : /[A-Z]/.test(id)
          ? 'Chrome extension ids are lowercase'
          : 'Chrome extension ids use only the letters a to p';
    throw new InvalidExtensionIdError(raw, detail);
  }
  if (id.startsWith('{'))
    throw new InvalidExtensionIdError(raw, 'a Firefox {uuid} id looks like {8-4-4-4-12 hex digits}');
  if (id.includes('@'))
    throw new InvalidExtensionIdError(raw, 'a Firefox add-on id uses letters, digits, ".", "_" and "-" around one "@"');
  throw new InvalidExtensionIdError(raw, 'it matches neither form');
}

/**
 * `extra` (validated, de-duplicated, order kept), after the development ids when `dev` (`tether install --dev`).
 * Throws InvalidExtensionIdError.
 */
export function allowedIds(extra: readonly string[], dev: boolean): AllowedIds {
  const chrome = dev ? [DEV_EXTENSION_ID] : [];
  const firefox = dev ? [DEV_FIREFOX_ADDON_ID] : [];
  for (const raw of extra) {
    const { family, id } = parseExtensionId(raw);
    const list = family === 'chrome' ? chrome : firefox;
    if (!list.includes(id)) list.push(id);
  }
  return { chrome, firefox };
}

/** The origin Chrome passes to the host and lists in `allowed_origins` (trailing slash required). */
export function chromeOrigin(id: string): string {
  return `chrome-extension://${id}/`;
}
