/** Options: model settings (through the host), backend and default model, site rules (list, revoke), diagnostics. */
import { classVerb } from '../shared/action-risk';
import { useState } from 'preact/hooks';
import type { Diagnostics, SiteRule } from '../shared/records';
import { ConnectionBanner } from '../shared/ui/connection-banner';
import { useModels, useWorker } from '../shared/ui/use-worker';
import type { WorkerClient } from '../shared/worker-client';
import { hostCommands } from './install-commands';
import { ModelSettings } from './model-settings';
import { TrustedInputSettings } from '../shared/ui/trusted-input';

/** The options app. */
export function Options(props: { client: WorkerClient }) {
  const { client } = props;
  const [rules, setRules] = useState<readonly SiteRule[]>([]);
  const [diag, setDiag] = useState<Diagnostics>();
  const [error, setError] = useState<string>();

  const refresh = (): void => {
    client
      .call('rules/list', {})
      .then((r) => setRules(r.rules))
      .catch(() => {});
    client
      .call('diagnostics/get', {})
      .then(setDiag)
      .catch(() => {});
  };
  // Rules and diagnostics are not pushed: read them again whenever the worker (re)connects or its state changes.
  const { state, linkUp } = useWorker(client, {
    onLink: (up) => {
      if (up) refresh();
    },
    onPush: (m) => {
      if (m.type === 'state') refresh();
    },
  });

  const connected = state?.connection.status === 'connected';
  const models = useModels(client, connected);

  const cmds = hostCommands(diag?.os ?? 'linux', chrome.runtime.id);
  const set = (patch: { backend?: string | null; model?: string | null }): void => {
    client.call('settings/set', patch).catch((e: Error) => setError(e.message));
  };

  return (
    <main>
      <h1>Tether</h1>
      <ConnectionBanner state={state} linkUp={linkUp} onRetry={() => void client.call('connection/retry', {})} />
      {error ? <div class="error-text">{error}</div> : null}
      <ModelSettings client={client} connected={connected} />
      <section>
        <h2>Backend and model</h2>
        <div class="row">
          <label>
            Backend{' '}
            <select
              name="backend"
              value={state?.settings.backend ?? ''}
              disabled={!state?.backends.length}
              onChange={(e) => set({ backend: e.currentTarget.value || null })}
            >
              <option value="">Host default{state?.backend ? ` (${state.backend})` : ''}</option>
              {state?.backends.map((b) => (
                <option value={b.id}>
                  {b.id} — {b.description ?? `${b.kind}, ${b.dialect}`}
                </option>
              ))}
            </select>
          </label>
          <label>
            Default model{' '}
            <select
              name="model"
              value={state?.settings.model ?? ''}
              disabled={!connected || state?.capabilities?.modelList === false}
              onChange={(e) => set({ model: e.currentTarget.value || null })}
            >
              <option value="">Backend default</option>
              {models.map((m) => (
                <option value={m.id}>{m.displayName ?? m.id}</option>
              ))}
            </select>
          </label>
        </div>
      </section>
      <TrustedInputSettings
        client={client}
        settings={state?.settings}
        available={typeof chrome !== 'undefined' && chrome.debugger !== undefined}
        onError={setError}
      />
      <section>
        <h2>Site rules</h2>
        <p class="muted" data-role="rules-scope">
          Site rules cover every agent: the conversation's own and every external MCP client on a shared tab. They are
          the only choices that do: “Allow … for this thread” covers the agent it was given to, and on an external
          client's card that client on its current connection only.
        </p>
        {rules.length === 0 ? (
          <p class="muted">
            No rules. A page tool's approval (reading the page, listing tabs, a screenshot) offers “Always allow” and
            “Always deny” on its site; a command on your computer never gets a site rule.
          </p>
        ) : (
          <table class="rules">
            <thead>
              <tr>
                <th>Site</th>
                <th>What</th>
                <th>Decision</th>
                <th>Since</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {rules.map((r) => (
                <tr key={r.id} data-rule-id={r.id} data-origin={r.origin} data-class={r.toolClass}>
                  <td>{r.origin}</td>
                  <td>{classVerb(r.toolClass)}</td>
                  <td>{r.decision === 'allow' ? 'Always allow' : 'Always deny'}</td>
                  <td>{new Date(r.createdAtMs).toLocaleString()}</td>
                  <td>
                    <button
                      type="button"
                      data-action="revoke"
                      onClick={() =>
                        client
                          .call('rules/revoke', { id: r.id })
                          .then((x) => setRules(x.rules))
                          .catch((e: Error) => setError(e.message))
                      }
                    >
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section>
        <h2>Diagnostics</h2>
        <table class="diagnostics">
          <tbody>
            <tr>
              <th>Extension</th>
              <td>
                {diag?.extensionVersion} ({diag?.extensionId})
              </td>
            </tr>
            <tr>
              <th>Host version</th>
              <td>{state?.hostVersion ?? 'unknown (not connected)'}</td>
            </tr>
            {state?.hostVersion ? (
              <tr>
                <th>Daemon version</th>
                <td>
                  {state.daemonVersion ??
                    `none: the host serves in-process, so turns end when the browser closes${state.daemonUnavailable ? ` (${state.daemonUnavailable})` : ''}`}
                </td>
              </tr>
            ) : null}
            <tr>
              <th>Backend</th>
              <td>
                {state?.backend ?? 'unknown'}
                {state?.serverInfo ? ` — ${state.serverInfo.name} ${state.serverInfo.version}` : ''}
              </td>
            </tr>
            <tr>
              <th>Install the host</th>
              <td>
                <code>{cmds.install}</code>
              </td>
            </tr>
            <tr>
              <th>Check the host</th>
              <td>
                <code>{cmds.doctor}</code>
              </td>
            </tr>
          </tbody>
        </table>
        {cmds.note ? <p class="muted">{cmds.note}</p> : null}
        <h3>Recent connection errors</h3>
        {diag?.errors.length ? (
          <ul class="errors">
            {[...diag.errors].reverse().map((e) => (
              <li>
                {new Date(e.atMs).toLocaleString()}: {e.message}
              </li>
            ))}
          </ul>
        ) : (
          <p class="muted">None.</p>
        )}
      </section>
    </main>
  );
}
