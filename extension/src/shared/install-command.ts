/**
 * The `tether install` command that registers the host for this very extension. The development build (the public
 * key in `manifests/dev-key.json`) is allowed only by `tether install --dev`; any other build must be named by its id,
 * or the host refuses it. Advice that said a bare `npx tether install` would fail for both.
 */
import devKey from '../../../manifests/dev-key.json';

/** Whether `extensionId` (Chrome's id, or Firefox's add-on id) is the development build's. */
export function isDevelopmentBuild(extensionId: string): boolean {
  return extensionId === devKey.extensionId || extensionId === devKey.firefoxAddonId;
}

/** The install command for the extension whose runtime id is `extensionId`. */
export function installCommandFor(extensionId: string): string {
  return isDevelopmentBuild(extensionId)
    ? 'npx tether install --dev'
    : `npx tether install --extension-id ${extensionId}`;
}
