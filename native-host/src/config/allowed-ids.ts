/**
 * The extension ids allowed to start the host: the development ids from `manifests/dev-key.json` (always) plus the
 * config file's `allowedExtensionIds`. `tether install` writes the same list into the browsers' host manifests.
 */
import devKey from '../../../manifests/dev-key.json';
import type { HostConfig } from './load';

/** The unpacked development extension's Chrome id (fixed by the key in manifests/dev-key.json). */
export const DEV_EXTENSION_ID: string = devKey.extensionId;
/** The development Firefox add-on id. */
export const DEV_FIREFOX_ADDON_ID: string = devKey.firefoxAddonId;

/** Every allowed id, development ids first, without duplicates. */
export function allowedExtensionIds(config?: Pick<HostConfig, 'allowedExtensionIds'>): string[] {
  return [...new Set([DEV_EXTENSION_ID, DEV_FIREFOX_ADDON_ID, ...(config?.allowedExtensionIds ?? [])])];
}
