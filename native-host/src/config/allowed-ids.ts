/**
 * The extension ids allowed to start the host: the config file's `allowedExtensionIds`, the ids the launcher names
 * (`tether install --extension-id`), plus the development ids from
 * `manifests/dev-key.json` only when the launcher says the install was for development (`tether install --dev`, which
 * `npm start` runs). That key is public, so any sideloaded extension can carry the development id.
 */
import devKey from '../../../manifests/dev-key.json';
import type { HostConfig } from './defaults';

/** The unpacked development extension's Chrome id (fixed by the public key in manifests/dev-key.json). */
export const DEV_EXTENSION_ID: string = devKey.extensionId;
/** The development Firefox add-on id (the `gecko.id` of the development build; any unsigned add-on can claim it). */
export const DEV_FIREFOX_ADDON_ID: string = devKey.firefoxAddonId;
/**
 * The argument a development launcher (`tether install --dev`) passes before the browser's: only then does the host
 * allow the development ids. The browser cannot add it; whoever can edit the launcher controls the host anyway.
 */
export const ALLOW_DEV_EXTENSION_FLAG = '--allow-dev-extension';
/**
 * `--allow-extension=ID`, which a launcher passes once per id its install allowed in the manifests, so installing
 * with `--extension-id ID` alone lets ID in (the config's list need not repeat it). Same trust as the development flag.
 */
export const ALLOW_EXTENSION_FLAG = '--allow-extension';

/** Whether `id` is one of the development ids, whose key is public. */
export function isDevExtensionId(id: string): boolean {
  return id === DEV_EXTENSION_ID || id === DEV_FIREFOX_ADDON_ID;
}

/** The ids the host allows: the config's, plus the development ids first when `allowDev`; without duplicates. */
export function allowedExtensionIds(
  config: Pick<HostConfig, 'allowedExtensionIds'> | undefined,
  allowDev: boolean,
): string[] {
  return [
    ...new Set([...(allowDev ? [DEV_EXTENSION_ID, DEV_FIREFOX_ADDON_ID] : []), ...(config?.allowedExtensionIds ?? [])]),
  ];
}
