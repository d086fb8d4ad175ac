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
  /** What the host confirmed: only this says the tab is shared (`data-shared`, the status line). */
  const [shared, setShared] = useState(false);
  /** The user's choice while the host has not answered yet: the box shows it at once. */
  const [asked, setAsked] = useState<boolean>();
  const busy = asked !== undefined;
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
    setError(undefined);
    // The box shows the user's choice at once; the tab counts as shared only once the host confirms it (a call from
    // an external client before then would find nothing shared, or the tab shared before this one).
    setAsked(on);
    try {
      setShared((await client.call('share/set', { shared: on })).shared);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setAsked(undefined);
    }
  };
  const clients = state?.mcp.clients ?? [];
  return (
    <div class="share" data-shared={String(shared)} aria-busy={busy}>
      <label>
        <input
          type="checkbox"
          name="share-tab"
          checked={asked ?? shared}
          disabled={!connected || busy}
          onChange={(e) => {
            // Sharing opens the tab to programs outside the browser: only the user's own click may change it.
            if (e.isTrusted) void toggle(e.currentTarget.checked);
            else e.currentTarget.checked = asked ?? shared;
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
