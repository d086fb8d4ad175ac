/**
 * Past threads: each with its title (the backend's, from the first message), a preview line (the last message's
 * first line) and when it was last active; the tab's own thread is marked. A search box asks the backend for threads
 * whose title or preview holds the text. Archive hides a thread at once and offers Undo for a few seconds.
 */
import type { Thread } from '@tether/protocol';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { WorkerClient } from '../shared/worker-client';

/** How long "Archived. Undo" stays. */
export const UNDO_MS = 8000;
/** Pause after the last key before the search is sent. */
const SEARCH_DELAY_MS = 200;

/** The history list. */
export function History(props: {
  client: WorkerClient;
  canArchive: boolean;
  /** The thread this tab shows, marked in the list. */
  currentThreadId: string | undefined;
  onOpened: () => void;
  onError: (m: string) => void;
}) {
  const { client, onError } = props;
  const [threads, setThreads] = useState<readonly Thread[] | undefined>();
  const [search, setSearch] = useState('');
  const [undo, setUndo] = useState<{ thread: Thread; wasCurrent: boolean }>();
  // Answers can arrive out of order while the user types: only the latest request's answer is shown.
  const latest = useRef(0);

  const load = (text: string): void => {
    const ticket = ++latest.current;
    client
      .call('thread/list', text.trim() ? { search: text } : {})
      .then((r) => {
        if (ticket === latest.current) setThreads(r.threads);
      })
      .catch((e: Error) => onError(e.message));
  };
  useEffect(() => {
    const timer = setTimeout(() => load(search), search ? SEARCH_DELAY_MS : 0);
    return () => clearTimeout(timer);
  }, [client, search]);
  useEffect(() => {
    if (!undo) return;
    const timer = setTimeout(() => setUndo(undefined), UNDO_MS);
    return () => clearTimeout(timer);
  }, [undo]);

  const archive = (thread: Thread): void => {
    const wasCurrent = thread.id === props.currentThreadId;
    client
      .call('thread/archive', { threadId: thread.id })
      .then(() => {
        setThreads((list) => list?.filter((t) => t.id !== thread.id));
        setUndo({ thread, wasCurrent });
      })
      .catch((e: Error) => onError(e.message));
  };
  const unarchive = (): void => {
    if (!undo) return;
    const { thread, wasCurrent } = undo;
    setUndo(undefined);
    client
      .call('thread/unarchive', { threadId: thread.id, ...(wasCurrent ? { reopen: true } : {}) })
      .then(() => load(search))
      .catch((e: Error) => onError(e.message));
  };

  return (
    <div class="history">
      <input
        type="search"
        name="history-search"
        class="history-search"
        placeholder="Search conversations"
        aria-label="Search conversations"
        value={search}
        onInput={(e) => setSearch(e.currentTarget.value)}
      />
      {undo ? (
        <div class="history-undo" role="status">
          <span>Archived “{undo.thread.title || undo.thread.id}”.</span>
          <button type="button" data-action="undo-archive" onClick={unarchive}>
            Undo
          </button>
        </div>
      ) : null}
      {!threads ? (
        <div class="muted">Loading…</div>
      ) : threads.length === 0 ? (
        <div class="muted">{search.trim() ? 'No conversation matches.' : 'No past conversations.'}</div>
      ) : (
        <ul>
          {threads.map((t) => {
            const current = t.id === props.currentThreadId;
            return (
              <li key={t.id} data-thread-id={t.id} class={current ? 'current' : undefined}>
                <div class="history-head">
                  <button
                    type="button"
                    class="link"
                    aria-current={current ? 'true' : undefined}
                    onClick={() =>
                      client
                        .call('thread/open', { threadId: t.id })
                        .then(props.onOpened)
                        .catch((e: Error) => onError(e.message))
                    }
                  >
                    {t.title || t.id}
                  </button>
                  {current ? <span class="badge">This tab</span> : null}
                  <button
                    type="button"
                    data-action="archive"
                    disabled={!props.canArchive}
                    aria-label={`Archive “${t.title || t.id}”`}
                    onClick={() => archive(t)}
                  >
                    Archive
                  </button>
                </div>
                {t.preview ? <div class="preview muted">{t.preview}</div> : null}
                <div class="when muted">{new Date(t.updatedAtMs).toLocaleString()}</div>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
