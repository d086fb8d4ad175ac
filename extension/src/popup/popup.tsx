/**
 * The popup: connection state, this tab's approvals with the same choices as the panel, a quick prompt, and adding this
 * tab to a task of its window (or taking it out).
 */
import { ShareToggle } from '../shared/ui/share-toggle';
import { TaskJoin } from '../shared/ui/task-join';
import { useState } from 'preact/hooks';
import { ApprovalAnnouncer, ApprovalList } from '../shared/ui/approval-list';
import { ConnectionBanner } from '../shared/ui/connection-banner';
import { useWorker } from '../shared/ui/use-worker';
import type { WorkerClient } from '../shared/worker-client';
import { errorMessage } from '@tether/protocol';
import { openPanelFor } from '../shared/open-panel';
import { HandoverRequests } from '../sidepanel/handover-request';

/** The popup app. */
export function Popup(props: { client: WorkerClient; tabId: number | null }) {
  const { client, tabId } = props;
  const { state, linkUp, approvals, handovers } = useWorker(client);
  const [text, setText] = useState('');
  const [sent, setSent] = useState<string>();
  const [error, setError] = useState<string>();

  const connected = state?.connection.status === 'connected';
  const send = async (): Promise<void> => {
    if (!text.trim()) return;
    setError(undefined);
    try {
      await client.call('turn/send', { text: text.trim() });
      setText('');
      setSent('Sent. Open the side panel to follow the answer.');
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  return (
    <div>
      <ConnectionBanner state={state} linkUp={linkUp} onRetry={() => void client.call('connection/retry', {})} />
      <div class="popup-body">
        <ApprovalAnnouncer approvals={approvals} />
        {/* The badge counts hand-overs with approvals: what it counts is answerable here too. */}
        <HandoverRequests client={client} handovers={handovers} />
        {approvals.length > 0 ? (
          <ApprovalList client={client} approvals={approvals} />
        ) : handovers.length > 0 ? null : (
          <div class="muted">No approvals waiting on this tab.</div>
        )}
        <form
          class="row"
          onSubmit={(e) => {
            e.preventDefault();
            void send();
          }}
        >
          <input
            name="quick-prompt"
            style={{ flex: 1, padding: '4px 6px' }}
            placeholder="Quick prompt about this page"
            value={text}
            disabled={!connected || tabId === null}
            onInput={(e) => setText(e.currentTarget.value)}
          />
          <button type="submit" disabled={!connected || !text.trim()}>
            Send
          </button>
        </form>
        {sent ? <div class="muted">{sent}</div> : null}
        {tabId !== null ? <ShareToggle client={client} state={state} /> : null}
        {tabId !== null ? <TaskJoin client={client} /> : null}
        {error ? <div class="error-text">{error}</div> : null}
        <div class="row">
          <button
            type="button"
            data-action="open-panel"
            disabled={tabId === null}
            onClick={() => tabId !== null && void openPanelFor(tabId).then(() => window.close())}
          >
            Open side panel
          </button>
          <span class="spacer" />
          <button type="button" class="link" onClick={() => void chrome.runtime.openOptionsPage()}>
            Options
          </button>
        </div>
      </div>
    </div>
  );
}
