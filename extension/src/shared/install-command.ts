/**
 * The `tether` commands the pages print for this very extension, built by protocol's `hostCommand` (which doctor uses
 * too). A store or release build is served by the published package (`npx tether-bridge install --extension-id ID`),
 * which works without a checkout; the development build (the public key in `manifests/dev-key.json`) belongs to a
 * checkout, whose own `npx tether install --dev` alone allows it.
 */
import { hostCommand } from '@tether/protocol';
import devKey from '../../../manifests/dev-key.json';
import type { VersionSkew } from './records';

/** Whether `extensionId` (Chrome's id, or Firefox's add-on id) is the development build's. */
export function isDevelopmentBuild(extensionId: string): boolean {
  return extensionId === devKey.extensionId || extensionId === devKey.firefoxAddonId;
}

/** The install command for the extension whose runtime id is `extensionId`. */
export function installCommandFor(extensionId: string): string {
  const dev = isDevelopmentBuild(extensionId);
  return hostCommand('install', { dev }, dev ? {} : { extensionId });
}

/** The doctor command for the extension whose runtime id is `extensionId`. */
export function doctorCommandFor(extensionId: string): string {
  return hostCommand('doctor', { dev: isDevelopmentBuild(extensionId) });
}

/**
 * The command that ends a version skew: the host release matching this extension (`npx tether-bridge@VERSION install`;
 * the install record keeps the extension ids allowed before). A development checkout rebuilds instead: its `npx tether`
 * rebuilds a stale host, `npm run build` the extension.
 */
export function skewCommandFor(extensionId: string, skew: VersionSkew): string {
  if (isDevelopmentBuild(extensionId)) return skew.older === 'host' ? installCommandFor(extensionId) : 'npm run build';
  return hostCommand('install', { version: skew.extensionVersion });
}
