/**
 * The options page's "Model" section: an OpenAI-compatible endpoint for the host's built-in backend (address, key,
 * model, Test connection), the model servers the host found on this computer (Ollama, LM Studio), and the agents it
 * found on the PATH, each enabled in one click. Everything goes through the host: the key is sent once, to be written
 * to the host's private config file, and is never stored here or shown again.
 */
import type { BridgeConfigState, BridgeConfigWriteParams, BridgeLocalModelServer } from '@tether/protocol';
import { useEffect, useState } from 'preact/hooks';
import type { WorkerClient } from '../shared/worker-client';
import { errorMessage } from '@tether/protocol';

/** The result line under the form. */
type Status = { readonly kind: 'ok' | 'error' | 'busy'; readonly text: string } | undefined;

/** The Model section; `connected` says whether the host can be asked now. */
export function ModelSettings(props: { client: WorkerClient; connected: boolean }) {
  const { client, connected } = props;
  const [config, setConfig] = useState<BridgeConfigState>();
  const [baseUrl, setBaseUrl] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [model, setModel] = useState('');
  const [listed, setListed] = useState<readonly string[]>([]);
  const [status, setStatus] = useState<Status>();

  useEffect(() => {
    if (!connected) return;
    client
      .call('config/read', { detectLocal: true })
      .then((c) => {
        setConfig(c);
        // The form starts from what is saved; the key field never does.
        if (c.openai) {
          setBaseUrl((v) => v || c.openai?.baseUrl || '');
          setModel((v) => v || c.openai?.model || '');
        }
      })
      .catch((e: unknown) => setStatus({ kind: 'error', text: errorMessage(e) }));
  }, [client, connected]);

  const key = apiKey.trim();
  const test = (): void => {
    setStatus({ kind: 'busy', text: 'Asking the server for its models…' });
    client
      .call('config/test', { baseUrl: baseUrl.trim(), ...(key ? { apiKey: key } : {}) })
      .then(({ models }) => {
        setListed(models);
        if (!model && models[0]) setModel(models[0]);
        setStatus({
          kind: 'ok',
          text: models.length
            ? `Connected: ${models.length} model${models.length === 1 ? '' : 's'} (${models.slice(0, 8).join(', ')}${models.length > 8 ? ', …' : ''}).`
            : 'Connected, but the server lists no models: type the model id.',
        });
      })
      .catch((e: unknown) => setStatus({ kind: 'error', text: errorMessage(e) }));
  };
  /**
   * Saves `params` in the host's config file; `saved` says so in the status line. The local servers found before are
   * kept (a write does not look for them again).
   */
  const write = (params: BridgeConfigWriteParams, saved: (c: BridgeConfigState) => string): void => {
    client
      .call('config/write', params)
      .then((c) => {
        setConfig((old) => ({ ...c, ...(old?.local ? { local: old.local } : {}) }));
        setStatus({ kind: 'ok', text: saved(c) });
      })
      .catch((e: unknown) => setStatus({ kind: 'error', text: errorMessage(e) }));
  };
  /** The endpoint in the form, with `apiKey` (null removes the saved key; absent keeps it). */
  const endpoint = (apiKey: { apiKey?: string | null }): BridgeConfigWriteParams => ({
    openai: { baseUrl: baseUrl.trim(), ...apiKey, ...(model.trim() ? { model: model.trim() } : {}) },
  });
  const save = (): void => {
    setStatus({ kind: 'busy', text: 'Saving…' });
    write(endpoint(key ? { apiKey: key } : {}), (c) => {
      setApiKey('');
      return `Saved in ${c.file}. Tether reconnects to use it.`;
    });
  };
  const forgetKey = (): void => write(endpoint({ apiKey: null }), () => 'The saved key was removed.');
  const enable = (preset: string, label: string): void => {
    setStatus({ kind: 'busy', text: `Enabling ${label}…` });
    write({ preset }, () => `${label} is now the default backend. Tether reconnects to use it.`);
  };
  const useLocal = (server: BridgeLocalModelServer): void => {
    setBaseUrl(server.baseUrl);
    setListed(server.models);
    setModel(server.models[0] ?? '');
    setApiKey('');
    setStatus({ kind: 'ok', text: `${server.label}: pick a model and Save.` });
  };

  const running = config?.local?.filter((s) => s.running) ?? [];
  const canTest = connected && baseUrl.trim() !== '' && status?.kind !== 'busy';
  return (
    <section class="model-settings">
      <h2>Model</h2>
      <p class="muted">
        The host's built-in backend talks to any OpenAI-compatible endpoint. The key goes to the host, which keeps it in
        its own private config file{config ? ` (${config.file})` : ''}; it is never stored in the browser or shown
        again.
      </p>
      {running.length ? (
        <div class="local-servers">
          {running.map((s) => (
            <div class="row" data-local={s.id}>
              <span>
                Found {s.label} on this computer ({s.models.length} model{s.models.length === 1 ? '' : 's'})
              </span>
              <button type="button" data-action={`use-${s.id}`} onClick={() => useLocal(s)}>
                Use {s.label}
              </button>
            </div>
          ))}
        </div>
      ) : config?.local ? (
        <p class="muted">No Ollama or LM Studio is running on this computer.</p>
      ) : null}
      <form
        class="model-form"
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        <label>
          Endpoint{' '}
          <input
            name="openai-base-url"
            type="url"
            placeholder="https://api.openai.com/v1"
            value={baseUrl}
            disabled={!connected}
            onInput={(e) => setBaseUrl(e.currentTarget.value)}
          />
        </label>
        <label>
          Key{' '}
          <input
            name="openai-api-key"
            type="password"
            autocomplete="off"
            placeholder={
              config?.openai?.hasApiKey ? 'Saved (leave empty to keep it)' : 'None (a local server needs none)'
            }
            value={apiKey}
            disabled={!connected}
            onInput={(e) => setApiKey(e.currentTarget.value)}
          />
        </label>
        <label>
          Model{' '}
          <input
            name="openai-model"
            list="openai-models"
            placeholder="e.g. gpt-4o-mini or llama3.2"
            value={model}
            disabled={!connected}
            onInput={(e) => setModel(e.currentTarget.value)}
          />
          <datalist id="openai-models">
            {listed.map((id) => (
              <option value={id} />
            ))}
          </datalist>
        </label>
        <div class="row">
          <button type="button" data-action="test-connection" disabled={!canTest} onClick={test}>
            Test connection
          </button>
          <button type="submit" data-action="save-model" disabled={!canTest}>
            Save
          </button>
          {config?.openai?.hasApiKey ? (
            <button type="button" class="link" data-action="forget-key" disabled={!canTest} onClick={forgetKey}>
              Remove the saved key
            </button>
          ) : null}
        </div>
      </form>
      {status ? (
        <div class={status.kind === 'error' ? 'error-text model-status' : 'muted model-status'} role="status">
          {status.text}
        </div>
      ) : null}
      <h3>Agents on this computer</h3>
      <ul class="presets">
        {config?.presets.map((p) => (
          <li data-preset={p.id}>
            <strong>{p.label}</strong>{' '}
            {p.path ? (
              config.defaultBackend === p.id ? (
                <span class="muted">in use (the default backend)</span>
              ) : (
                <button
                  type="button"
                  data-action={`enable-${p.id}`}
                  disabled={!connected}
                  onClick={() => enable(p.id, p.label)}
                >
                  Use {p.label}
                </button>
              )
            ) : (
              <span class="muted">
                not found on the PATH: <code>{p.install}</code>
              </span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
