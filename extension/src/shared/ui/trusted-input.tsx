/**
 * Trusted input, in the user's words: the options page's setting (off / ask per site / always, with the allowed sites
 * and a way to remove each) and the side panel's one-time offer on a site, which explains Chrome's "started debugging
 * this browser" bar before anything attaches.
 */
import { type Settings, TrustedInputSetting } from '../records';
import type { WorkerClient } from '../worker-client';

/** What the bar means, said once wherever trusted input is switched on. */
export const TRUSTED_INPUT_EXPLAINED =
  'Trusted input lets the agent click, type, drag and choose files the way you do, so pages that ignore scripted events, menus that open on hover and file pickers work. Chrome then shows "Tether started debugging this browser" while the agent acts on the page, and Tether lets go when the turn ends. Pressing Cancel on that bar switches it off until the turn ends.';

/** The options page's section: the setting and the sites allowed under "ask per site". */
export function TrustedInputSettings(props: {
  client: WorkerClient;
  settings: Settings | undefined;
  /** Firefox: no debugger API, so the setting cannot apply. */
  available: boolean;
  onError(message: string): void;
}) {
  const { client, settings, onError } = props;
  const set = (patch: { trustedInput?: TrustedInputSetting; trustedSites?: string[] }): void => {
    client.call('settings/set', patch).catch((e: Error) => onError(e.message));
  };
  const sites = settings?.trustedSites ?? [];
  return (
    <section data-role="trusted-input">
      <h2>Trusted input</h2>
      {props.available ? (
        <>
          <p class="muted">{TRUSTED_INPUT_EXPLAINED}</p>
          <label>
            Use trusted input{' '}
            <select
              name="trustedInput"
              value={settings?.trustedInput ?? 'ask'}
              onChange={(e) => {
                const chosen = TrustedInputSetting.safeParse(e.currentTarget.value);
                if (chosen.success) set({ trustedInput: chosen.data });
              }}
            >
              <option value="off">Never (scripted events only)</option>
              <option value="ask">On sites I allow from the side panel</option>
              <option value="always">On every site</option>
            </select>
          </label>
          {sites.length > 0 ? (
            <ul class="trusted-sites">
              {sites.map((origin) => (
                <li key={origin} data-origin={origin}>
                  {origin}{' '}
                  <button
                    type="button"
                    data-action="remove-trusted-site"
                    onClick={() => set({ trustedSites: sites.filter((s) => s !== origin) })}
                  >
                    Remove
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
        </>
      ) : (
        <p class="muted">
          This browser has no debugger API for extensions (Firefox), so the agent's input is scripted: menus that open
          on CSS hover, file pickers and pages that check for real input may not respond.
        </p>
      )}
    </section>
  );
}

/** The panel's offer for one site: what trusted input is and what Chrome will show, with Allow and Not now. */
export function TrustedInputOffer(props: { client: WorkerClient; origin: string; onClose(): void }) {
  const { client, origin, onClose } = props;
  return (
    <section class="trusted-offer" aria-label="Trusted input" data-origin={origin}>
      <p>
        The agent is acting on <strong>{origin}</strong> with scripted events. {TRUSTED_INPUT_EXPLAINED}
      </p>
      <button
        type="button"
        data-action="allow-trusted-input"
        onClick={() => {
          void client
            .call('trusted/allow-site', {})
            .catch(() => undefined)
            .then(onClose);
        }}
      >
        Allow trusted input on this site
      </button>{' '}
      <button type="button" data-action="dismiss-trusted-input" onClick={onClose}>
        Not now
      </button>
    </section>
  );
}
