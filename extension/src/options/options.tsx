/** Options: backend and default model, site rules (list, revoke), diagnostics. */
import type { ModelInfo } from '@tether/protocol';
import { useEffect, useState } from 'preact/hooks';
import type { Diagnostics, SiteRule, WorkerState } from '../shared/messages';
import { ConnectionBanner } from '../shared/ui/connection-banner';
import type { WorkerClient } from '../shared/worker-client';
import { hostCommands } from './install-commands';

/** The options app. */
export function Options(props: { client: WorkerClient }) {
  const { client } = props;
  const [state, setState] = useState<WorkerState>();
  const [linkUp, setLinkUp] = useState(false);
  const [rules, setRules] = useState<readonly SiteRule[]>([]);
  const [models, setModels] = useState<readonly ModelInfo[]>([]);
  const [diag, setDiag] = useState<Diagnostics>();
  const [error, setError] = useState<string>();

  const refresh = (): void => {
    client.call('rules/list', {}).then((r) => setRules((r as { rules: SiteRule[] }).rules)).catch(() => {});
    client.call('diagnostics/get', {}).then((d) => setDiag(d as Diagnostics)).catch(() => {});
  };

  useEffect(() => {
    const offLink = client.onLink((up) => {
      setLinkUp(up);
      if (up) refresh();
    });
    const off = client.onMessage((m) => {
      if (m.type === 'state') {
        setState(m.state);
        refresh();
      }
    });
    return () => {
      off();
      offLink();
    };
  }, [client]);

  const connected = state?.connection.status === 'connected';
  useEffect(() => {
    if (!connected) return;
    client.call('model/list', {}).then((r) => setModels((r as { models: ModelInfo[] }).models)).catch(() => setModels([]));
  }, [client, connected]);

  const cmds = hostCommands(diag?.os ?? 'linux', chrome.runtime.id);
  const set = (patch: { backend?: string | null; model?: string | null }): void => {
    client.call('settings/set', patch).catch((e: Error) => setError(e.message));
  };

  return (
    <main>
      <h1>Tether</h1>
      <ConnectionBanner state={state} linkUp={linkUp} onRetry={() => void client.call('connection/retry', {})} />
      {error ? <div class="error-text">{error}</div> : null}
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
      <section>
        <h2>Site rules</h2>
        {rules.length === 0 ? (
          <p class="muted">
            No rules. A page tool's approval (reading the page, listing tabs, a screenshot) offers “Always allow” and “Always
            deny” on its site; a command on your computer never gets a site rule.
          </p>
        ) : (
          <table class="rules">
            <thead>
              <tr>
                <th>Site</th>
                <th>Tool</th>
                <th>Decision</th>
                <th>Since</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {rules.map((r) => (
                <tr key={r.id} data-rule-id={r.id} data-origin={r.origin} data-tool={r.toolName}>
                  <td>{r.origin}</td>
                  <td>{r.toolName}</td>
                  <td>{r.decision === 'allow' ? 'Always allow' : 'Always deny'}</td>
                  <td>{new Date(r.createdAtMs).toLocaleString()}</td>
                  <td>
                    <button
                      type="button"
                      data-action="revoke"
                      onClick={() =>
                        client
                          .call('rules/revoke', { id: r.id })
                          .then((x) => setRules((x as { rules: SiteRule[] }).rules))
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
