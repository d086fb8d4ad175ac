/** Past threads: open one in this tab, or archive it. */
import type { Thread } from '@tether/protocol';
import { useEffect, useState } from 'preact/hooks';
import type { WorkerClient } from '../shared/worker-client';

/** The history list. */
export function History(props: {
  client: WorkerClient;
  canArchive: boolean;
  onOpened: () => void;
  onError: (m: string) => void;
}) {
  const { client, onError } = props;
  const [threads, setThreads] = useState<readonly Thread[] | undefined>();
  const load = (): void => {
    client
      .call('thread/list', {})
      .then((r) => setThreads(r.threads))
      .catch((e: Error) => onError(e.message));
  };
  useEffect(load, [client]);
  if (!threads) return <div class="history muted">Loading…</div>;
  if (threads.length === 0) return <div class="history muted">No past conversations.</div>;
  return (
    <ul class="history">
      {threads.map((t) => (
        <li key={t.id} data-thread-id={t.id}>
          <button
            type="button"
            class="link"
            onClick={() =>
              client
                .call('thread/open', { threadId: t.id })
                .then(props.onOpened)
                .catch((e: Error) => onError(e.message))
            }
          >
            {t.title || t.id}
          </button>
          <span class="muted"> {new Date(t.updatedAtMs).toLocaleString()}</span>
          <button
            type="button"
            disabled={!props.canArchive}
            onClick={() =>
              client
                .call('thread/archive', { threadId: t.id })
                .then(load)
                .catch((e: Error) => onError(e.message))
            }
          >
            Archive
          </button>
        </li>
      ))}
    </ul>
  );
}
