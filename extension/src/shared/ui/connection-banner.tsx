/** The connection state, told straight: status, the browser's reason, and what to do about it. */
import { useEffect, useState } from 'preact/hooks';
import { adviceFor, agentFixAdvice, daemonUnavailableNote, daemonUpdateNote, skewAdvice } from '../connection-advice';
import { doctorCommandFor, installCommandFor, skewCommandFor } from '../install-command';
import type { WorkerState } from '../records';

/** Shows connected / connecting / disconnected, the reason and a Retry button. */
export function ConnectionBanner(props: { state: WorkerState | undefined; linkUp: boolean; onRetry: () => void }) {
  const { state, linkUp } = props;
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  if (!linkUp || !state) {
    return (
      <div key="starting" class="banner connecting" data-status="connecting" role="status">
        <span class="dot" /> Starting the extension…
      </div>
    );
  }
  const c = state.connection;
  if (c.status === 'connected') {
    const update = daemonUpdateNote(state.hostVersion, state.daemonVersion);
    return (
      <div
        key="connected"
        class="banner connected"
        data-status="connected"
        role="status"
        title={state.hostVersion ? `Host ${state.hostVersion}` : ''}
      >
        <span class="dot" /> Connected{state.backend ? ` · ${state.backend}` : ''}
        {state.serverInfo ? <span class="muted"> · {state.serverInfo.name}</span> : null}
        {update ? (
          <div class="reason" data-update="pending">
            {update}
          </div>
        ) : null}
        {state.daemonUnavailable ? (
          <div class="reason" data-daemon="unavailable">
            {daemonUnavailableNote(state.daemonUnavailable)}
          </div>
        ) : null}
      </div>
    );
  }
  if (c.status === 'connecting') {
    return (
      <div key="connecting" class="banner connecting" data-status="connecting" role="status">
        <span class="dot" /> {c.reason ? 'Reconnecting' : 'Connecting'} to the Tether host…
        {c.reason ? <div class="reason">Last problem: {c.reason}</div> : null}
      </div>
    );
  }
  const id = chrome.runtime.id;
  const advice = c.skew
    ? skewAdvice(c.skew, skewCommandFor(id, c.skew))
    : c.fix
      ? agentFixAdvice(c.fix)
      : adviceFor(c.reason, { install: installCommandFor(id), doctor: doctorCommandFor(id) }, c.upForMs);
  const wait = c.retryAtMs ? Math.max(0, Math.ceil((c.retryAtMs - now) / 1000)) : undefined;
  return (
    // Keyed per status: Preact would otherwise patch one status's banner into the next in place, so a reader holding
    // the disconnected banner could see its reason with the next status's parts (no command) mid-retry.
    <div key="disconnected" class="banner disconnected" data-status="disconnected" role="alert">
      <div>
        <span class="dot" /> <strong>Disconnected.</strong> {advice.title}
      </div>
      {c.skew || c.fix ? (
        <div class="reason" data-skew={c.skew?.older ?? c.fix?.olderSide}>
          {c.reason}
        </div>
      ) : c.reason && c.reason !== advice.title ? (
        <div class="reason">Browser says: “{c.reason}”</div>
      ) : null}
      <div class="advice">
        {advice.action} {advice.command ? <code class="command">{advice.command}</code> : null}
      </div>
      <div class="row">
        <button type="button" onClick={props.onRetry}>
          Retry now
        </button>
        {wait !== undefined ? <span class="muted">Retrying by itself in {wait} s</span> : null}
      </div>
    </div>
  );
}
