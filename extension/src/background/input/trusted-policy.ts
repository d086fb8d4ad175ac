/**
 * The user's trusted-input setting as the input layer's policy: off, everywhere, or (the default) on the sites the
 * user allowed from the side panel, whose offer explains Chrome's "started debugging this browser" bar first.
 */
import type { Settings } from '../../shared/records';
import type { InputMode, TrustedPolicy } from './input-layer';

/** The result's words for a site the user has not allowed trusted input on yet. */
export const NOT_ALLOWED_YET = 'trusted input is not allowed on this site yet; the side panel offers it to the user';

/** Whether trusted input may be used on `origin` under `settings`, and why not. */
export function trustedInputMode(settings: Settings, origin: string): InputMode {
  const setting = settings.trustedInput ?? 'ask';
  if (setting === 'off') return { trusted: false, why: "trusted input is off in Tether's options" };
  if (setting === 'always') return { trusted: true };
  if (origin && settings.trustedSites?.includes(origin)) return { trusted: true };
  return { trusted: false, why: NOT_ALLOWED_YET };
}

/** The policy over the live settings; `offer` is told each tab and origin that would use trusted input under 'ask' if allowed. */
export function trustedPolicy(settings: () => Settings, offer: (tabId: number, origin: string) => void): TrustedPolicy {
  return (origin, tabId) => {
    const mode = trustedInputMode(settings(), origin);
    if (!mode.trusted && mode.why === NOT_ALLOWED_YET && /^https?:/.test(origin)) offer(tabId, origin);
    return mode;
  };
}
