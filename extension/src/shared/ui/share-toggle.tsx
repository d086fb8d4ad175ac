/**
 * "Share this tab with external agents": lets agents outside the browser (Claude Code, Codex CLI, Cursor, any MCP
 * client started with `tether mcp`) ask to use this tab. Each of their calls still asks in this tab's panel, naming
 * the client; the names shown are the clients' own claims. Only a real click changes it.
 */
import { useEffect, useState } from 'preact/hooks';
import { errorMessage } from '@tether/protocol';
import type { WorkerState } from '../records';
import type { WorkerClient } from '../worker-client';

/** The toggle and, while on, who is connected. */
export function ShareToggle(props: { client: WorkerClient; state: WorkerState | undefined }) {
  const { client, state } = props;
  const [shared, setShared] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const connected = state?.connection.status === 'connected';
  const sharedThreads = state?.mcp.shared.join(',') ?? '';
  useEffect(() => {
    // The worker's list changes when this or another tab shares, and when a new host starts: ask where this tab is.
    let live = true;
    void client.call('share/get', {}).then(
      (r) => live && setShared(r.shared),
      () => live && setShared(false),
    );
    return () => {
      live = false;
    };
  }, [client, sharedThreads]);
  const toggle = async (on: boolean): Promise<void> => {
    setBusy(true);
    setError(undefined);
    // The box shows the user's choice at once; the host's answer then confirms it or puts it back.
    setShared(on);
    try {
      setShared((await client.call('share/set', { shared: on })).shared);
    } catch (e) {
      setShared(!on);
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  const clients = state?.mcp.clients ?? [];
  return (
    <div class="share" data-shared={String(shared)}>
      <label>
        <input
          type="checkbox"
          name="share-tab"
          checked={shared}
          disabled={!connected || busy}
          onChange={(e) => {
            // Sharing opens the tab to programs outside the browser: only the user's own click may change it.
            if (e.isTrusted) void toggle(e.currentTarget.checked);
            else e.currentTarget.checked = shared;
          }}
        />{' '}
        Share this tab with external agents
      </label>
      {shared ? (
        <div class="share-status" role="status">
          Agents started with <code>tether mcp</code> may ask to use this tab; each call asks here first.{' '}
          {clients.length > 0
            ? `Connected: ${clients.map((c) => `${c.name} ${c.version}`.trim()).join(', ')} (names they give themselves).`
            : 'No agent is connected.'}
        </div>
      ) : null}
      {error ? <div class="error-text">{error}</div> : null}
    </div>
  );
}
