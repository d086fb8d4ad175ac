/**
 * The first-run welcome of the side panel: what Tether can do on this page, three prompts to start from (a click puts
 * one in the composer, unsent), the backend and model that will answer, and the composer focused. Shown until the
 * first message is sent; a flag in chrome.storage.local remembers that, and nothing else is stored.
 */
import type { ModelInfo } from '@tether/protocol';
import { useEffect, useState } from 'preact/hooks';
import type { WorkerState } from '../shared/records';

/** The storage key of the flag: true once the first message was sent. */
export const WELCOME_DONE_KEY = 'tether.welcomeDone';

/** Prompts that work on most pages with any backend. */
export const SUGGESTED_PROMPTS: readonly string[] = [
  'Summarise this page in five bullet points.',
  'What are the most important facts on this page?',
  'What can I do on this page? List its forms and main buttons.',
];

/**
 * Whether the welcome is due: undefined while the flag loads, false once a message was sent (`started` turns true,
 * which also sets the flag).
 */
export function useWelcome(started: boolean): boolean | undefined {
  const [due, setDue] = useState<boolean>();
  useEffect(() => {
    chrome.storage.local.get(WELCOME_DONE_KEY).then(
      (got) => setDue((d) => (d === false ? d : got[WELCOME_DONE_KEY] !== true)),
      () => setDue(false),
    );
    // A first message sent in another tab's panel ends the welcome in this one too.
    const changed = (changes: Record<string, chrome.storage.StorageChange>, area: string): void => {
      if (area === 'local' && changes[WELCOME_DONE_KEY]?.newValue === true) setDue(false);
    };
    chrome.storage.onChanged.addListener(changed);
    return () => chrome.storage.onChanged.removeListener(changed);
  }, []);
  useEffect(() => {
    if (!started || due === false) return;
    setDue(false);
    void chrome.storage.local.set({ [WELCOME_DONE_KEY]: true }).catch(() => {});
  }, [started, due]);
  return due;
}

/** The model that answers the next message: the one chosen, else the backend's default. */
function answeringModel(state: WorkerState | undefined, models: readonly ModelInfo[]): string | undefined {
  return state?.settings.model ?? models.find((m) => m.isDefault)?.id;
}

/** The backend and model that answer the next message, as words. */
function answeredBy(state: WorkerState | undefined, models: readonly ModelInfo[]): string {
  const backend = state?.backend ?? state?.settings.backend ?? 'the host’s default backend';
  const model = answeringModel(state, models);
  return model ? `${backend}, model ${model}` : backend;
}

/** The welcome; `onPrompt` puts a suggested prompt in the composer. */
export function Welcome(props: {
  state: WorkerState | undefined;
  models: readonly ModelInfo[];
  onPrompt: (text: string) => void;
}) {
  const { state, models } = props;
  const connected = state?.connection.status === 'connected';
  const scripted = answeringModel(state, models) === 'scripted';
  useEffect(() => {
    // The composer is where the user starts: focused as soon as it can take text.
    if (connected) document.querySelector<HTMLTextAreaElement>('textarea[name="prompt"]')?.focus();
  }, [connected]);
  return (
    <section class="welcome" aria-label="Welcome to Tether">
      <h2>Welcome to Tether</h2>
      <p class="welcome-text">
        Ask about the page in this tab. Tether reads it, finds things on it and, when you allow it, clicks, fills in
        forms or runs a command on this computer. Every action asks you first.
      </p>
      <div class="suggestions">
        {SUGGESTED_PROMPTS.map((text) => (
          <button
            type="button"
            class="suggestion"
            data-action="suggest"
            disabled={!connected}
            onClick={() => props.onPrompt(text)}
          >
            {text}
          </button>
        ))}
      </div>
      <p class="welcome-text muted welcome-backend">
        {connected ? `Answering: ${answeredBy(state, models)}.` : 'Connecting to the host…'}
        {connected && scripted ? (
          <>
            {' '}
            This is the offline scripted model:{' '}
            <button
              type="button"
              class="link"
              data-action="open-options"
              onClick={() => void chrome.runtime.openOptionsPage()}
            >
              set up a real model in Options
            </button>
            .
          </>
        ) : null}
      </p>
    </section>
  );
}
