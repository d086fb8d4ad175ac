/** The composer: Enter sends (Shift+Enter is a newline); while a turn runs, Enter steers and Stop interrupts. */
import type { ModelInfo } from '@tether/protocol';
import { useState } from 'preact/hooks';
import type { WorkerState } from '../shared/records';
import type { WorkerClient } from '../shared/worker-client';
import { errorMessage } from '@tether/protocol';

/** Message box, Send/Steer/Stop, model and backend pickers. */
export function Composer(props: {
  client: WorkerClient;
  state: WorkerState | undefined;
  models: readonly ModelInfo[];
  running: boolean;
  canSteer: boolean;
  /** Shows steering input where it was sent; returns an undo for when the backend refuses it. */
  onSteer: (text: string) => () => void;
  onError: (message: string | undefined) => void;
}) {
  const { client, state, models, running, canSteer, onError } = props;
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const connected = state?.connection.status === 'connected';
  const model = state?.settings.model ?? '';
  const backend = state?.settings.backend ?? state?.backend ?? '';

  const submit = async (): Promise<void> => {
    const value = text.trim();
    if (!value || busy || !connected) return;
    if (running && !canSteer) return;
    setBusy(true);
    onError(undefined);
    const undo = running ? props.onSteer(value) : undefined;
    try {
      if (running) await client.call('turn/steer', { text: value });
      else await client.call('turn/send', { text: value });
      setText('');
    } catch (e) {
      undo?.();
      onError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      class="composer"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <textarea
        name="prompt"
        rows={3}
        placeholder={
          running ? (canSteer ? 'Steer the running turn…' : 'Wait for the turn to finish…') : 'Ask about this page…'
        }
        value={text}
        disabled={!connected}
        onInput={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
            e.preventDefault();
            void submit();
          }
        }}
      />
      <div class="row">
        <select
          name="model"
          title="Model"
          disabled={!connected || models.length === 0 || state?.capabilities?.modelList === false}
          value={model}
          onChange={(e) => void client.call('settings/set', { model: e.currentTarget.value || null }).catch(() => {})}
        >
          <option value="">Default model</option>
          {models.map((m) => (
            <option value={m.id}>{m.displayName ?? m.id}</option>
          ))}
        </select>
        <select
          name="backend"
          title="Backend"
          disabled={!state || state.backends.length < 2}
          value={backend}
          onChange={(e) => void client.call('settings/set', { backend: e.currentTarget.value || null }).catch(() => {})}
        >
          {state?.backends.length ? null : <option value="">{state?.backend ?? 'Backend'}</option>}
          {state?.backends.map((b) => (
            <option value={b.id} title={b.description}>
              {b.id}
            </option>
          ))}
        </select>
        <span class="spacer" />
        {running ? (
          <button
            type="button"
            class="stop"
            data-action="stop"
            onClick={() => void client.call('turn/interrupt', {}).catch((e: Error) => onError(e.message))}
          >
            Stop
          </button>
        ) : null}
        <button
          type="submit"
          data-action="send"
          disabled={!connected || busy || !text.trim() || (running && !canSteer)}
        >
          {running ? 'Steer' : 'Send'}
        </button>
      </div>
    </form>
  );
}
