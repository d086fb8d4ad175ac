/**
 * "Add this tab to the task" and "Take this tab out", in the popup and the side panel of a tab that is not a
 * conversation's own: the user lets the agent of a conversation in this window read and act on this page (each action
 * still asks under the approvals), or takes the page back. Only a real click changes it.
 */
import { errorMessage } from '@tether/protocol';
import { useEffect, useState } from 'preact/hooks';
import type { ViewOpResult } from '../operations';
import type { WorkerClient } from '../worker-client';

/** The button(s) for the calling tab; nothing for a conversation's own tab or a page no task can hold. */
export function TaskJoin(props: { client: WorkerClient; refreshKey?: string | number }) {
  const { client, refreshKey } = props;
  const [here, setHere] = useState<ViewOpResult<'task/here'>>();
  const [error, setError] = useState<string>();
  const [asked, setAsked] = useState(0);
  useEffect(() => {
    let live = true;
    void client.call('task/here', {}).then(
      (r) => live && setHere(r),
      () => live && setHere(undefined),
    );
    return () => {
      live = false;
    };
  }, [client, refreshKey, asked]);
  const run = (p: Promise<unknown>): void => {
    setError(undefined);
    p.then(
      () => setAsked((n) => n + 1),
      (e: unknown) => setError(errorMessage(e)),
    );
  };
  if (!here || (!here.member && here.joinable.length === 0)) return null;
  return (
    <div class="task-join">
      {here.member ? (
        <button
          type="button"
          data-action="task-leave"
          title="The agent can no longer read or act on this tab"
          onClick={() => run(client.call('task/leave', {}))}
        >
          Take this tab out of the task of “{here.member.title}”
        </button>
      ) : (
        here.joinable.map((t) => (
          <button
            type="button"
            key={t.threadId}
            data-action="task-join"
            title="Let this conversation's agent read and act on this tab (each action still asks as usual)"
            onClick={() => run(client.call('task/join', { threadId: t.threadId }))}
          >
            Add this tab to the task of “{t.title}”
          </button>
        ))
      )}
      {error ? (
        <div class="error-text" role="alert">
          {error}
        </div>
      ) : null}
    </div>
  );
}
