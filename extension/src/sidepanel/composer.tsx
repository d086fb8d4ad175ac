/**
 * The composer: Enter sends (Shift+Enter is a newline); while a turn runs, Enter steers and Stop (or Esc, see
 * side-panel.tsx) interrupts. Up in an empty box recalls the last message sent; a message put back by its Edit button
 * is sent as a new turn, and the composer says so.
 */
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
  /** A new turn is being sent (not a steer). */
  onSending: () => void;
  /** The new turn could not be sent. */
  onSendFailed: () => void;
  /** The last message sent in this thread, for Up in an empty box. */
  recall: () => string | undefined;
  /** The message being edited (put back by its Edit button), if any. */
  editing: string | undefined;
  onCancelEdit: () => void;
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
    if (!running) props.onSending();
    try {
      if (running) await client.call('turn/steer', { text: value });
      else await client.call('turn/send', { text: value });
      setText('');
    } catch (e) {
      undo?.();
      if (!running) props.onSendFailed();
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
      {props.editing !== undefined && !running ? (
        <div class="edit-note" role="status">
          <span>Editing your last message: sending it starts a new turn, and the earlier one stays above.</span>
          <button type="button" class="link" data-action="cancel-edit" onClick={props.onCancelEdit}>
            Cancel
          </button>
        </div>
      ) : null}
      <textarea
        name="prompt"
        aria-label="Message"
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
            return;
          }
          const plain = !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey && !e.isComposing;
          if (e.key === 'ArrowUp' && plain && e.currentTarget.value === '') {
            const last = props.recall();
            if (!last) return;
            e.preventDefault();
            const box = e.currentTarget;
            box.value = last;
            setText(last);
            box.setSelectionRange(last.length, last.length);
          }
        }}
      />
      <div class="row">
        <select
          name="model"
          aria-label="Model"
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
          aria-label="Backend"
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
