/**
 * A hand-over request in the side panel: the agent's words, quoted and attributed to whoever asks, with "Done" and
 * "I can't" and a short answer field. It is the agent talking, not an approval: nothing here allows or denies an
 * action or remembers a choice for a site, so it looks like a message in the conversation, not like a card.
 *
 * The answer field is always there, optional: the agent names what it wants typed when it needs something (a code),
 * and otherwise the user can still say which option they picked or why they cannot, which the model needs as much.
 */
import { errorMessage } from '@tether/protocol';
import { useState } from 'preact/hooks';
import { HANDOVER_ANSWER_MAX_CHARS, type Handover, type HandoverOutcome } from '../shared/handover';
import type { WorkerClient } from '../shared/worker-client';
import './handover-request.css';

/** Who asks, in the panel's words: the thread's agent, or an external client by its own (unproven) name. */
export function askerOf(handover: Handover): string {
  return handover.caller
    ? `${handover.caller.name} (an outside agent, by its own name) asks you`
    : 'The agent asks you';
}

/** The tab's open hand-over requests, oldest first; each reply goes to the worker as `handover/answer`. */
export function HandoverRequests(props: { client: WorkerClient; handovers: readonly Handover[] }) {
  const { client, handovers } = props;
  return (
    <div class="handovers">
      <div class="sr-only" aria-live="assertive" aria-atomic="true">
        {handovers.length > 0 ? `${askerOf(handovers.at(-1)!)}: ${handovers.at(-1)!.message}` : ''}
      </div>
      {handovers.map((h) => (
        <HandoverRequest key={h.key} client={client} handover={h} />
      ))}
    </div>
  );
}

function HandoverRequest(props: { client: WorkerClient; handover: Handover }) {
  const { client, handover } = props;
  const [answer, setAnswer] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const reply = async (outcome: HandoverOutcome): Promise<void> => {
    setBusy(true);
    setError(undefined);
    const text = answer.trim();
    try {
      await client.call('handover/answer', { key: handover.key, outcome, ...(text ? { answer: text } : {}) });
    } catch (e) {
      // Still shown (the worker removes it when it is gone): say why the reply did not land, and let them retry.
      setError(errorMessage(e));
      setBusy(false);
    }
  };
  const asker = askerOf(handover);
  const fieldId = `handover-answer-${handover.key}`;
  return (
    <section class="handover" data-key={handover.key} aria-label={asker}>
      <div class="handover-asker">{asker}:</div>
      <blockquote class="handover-message">{handover.message}</blockquote>
      <form
        class="handover-reply"
        onSubmit={(e) => {
          e.preventDefault();
          void reply('done');
        }}
      >
        <label for={fieldId}>
          {handover.answerLabel ? `Your answer: ${handover.answerLabel}` : 'Your answer (optional)'}
        </label>
        <input
          id={fieldId}
          name="handover-answer"
          autocomplete="off"
          maxLength={HANDOVER_ANSWER_MAX_CHARS}
          value={answer}
          disabled={busy}
          onInput={(e) => setAnswer(e.currentTarget.value)}
        />
        <div class="handover-actions">
          <button type="submit" data-reply="done" disabled={busy}>
            Done
          </button>
          <button type="button" data-reply="cannot" disabled={busy} onClick={() => void reply('cannot')}>
            I can't
          </button>
        </div>
      </form>
      {error ? (
        <div class="error-text" role="alert">
          {error}
        </div>
      ) : null}
    </section>
  );
}
