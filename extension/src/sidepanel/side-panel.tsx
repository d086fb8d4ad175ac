/**
 * The side panel: connection banner, transcript (imperative, see transcript.ts), pending approvals, composer with
 * Stop and steering, new thread, history, model and backend pickers. Controls the backend cannot serve are greyed.
 */
import type { ModelInfo, Thread, Turn } from '@tether/protocol';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { PendingApproval, WorkerState } from '../shared/messages';
import { ApprovalList } from '../shared/ui/approval-list';
import { ConnectionBanner } from '../shared/ui/connection-banner';
import type { WorkerClient } from '../shared/worker-client';
import { Composer } from './composer';
import { History } from './history';
import { Transcript } from './transcript';

/** The side panel app. */
export function SidePanel(props: { client: WorkerClient }) {
  const { client } = props;
  const [state, setState] = useState<WorkerState>();
  const [linkUp, setLinkUp] = useState(false);
  const [thread, setThread] = useState<Thread | null>(null);
  const [turn, setTurn] = useState<Turn | undefined>();
  const [approvals, setApprovals] = useState<readonly PendingApproval[]>([]);
  const [models, setModels] = useState<readonly ModelInfo[]>([]);
  const [showHistory, setShowHistory] = useState(false);
  const [error, setError] = useState<string>();
  const scroller = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const transcript = useRef<Transcript | undefined>(undefined);

  useEffect(() => {
    if (!scroller.current || !list.current) return;
    const view = new Transcript(scroller.current, list.current);
    transcript.current = view;
    const offLink = client.onLink(setLinkUp);
    const off = client.onMessage((m) => {
      switch (m.type) {
        case 'state':
          setState(m.state);
          break;
        case 'snapshot':
          setThread(m.thread);
          setTurn(m.activeTurn?.status === 'running' ? m.activeTurn : undefined);
          view.reset(m.items);
          break;
        case 'events': {
          const seen = view.apply(m.events);
          if (seen.started) setTurn(seen.started);
          if (seen.completed) setTurn((t) => (t && t.id === seen.completed?.id ? undefined : t));
          break;
        }
        case 'approvals':
          setApprovals(m.approvals);
          break;
        case 'notice': {
          const n = m.notice;
          if (n.kind === 'rule-decided') {
            view.addNote('rule', `${n.toolName} was ${n.rule.decision === 'allow' ? 'allowed' : 'denied'} on ${n.rule.origin} by your rule “always ${n.rule.decision} ${n.rule.toolName} on this site” (revoke it in Options).`);
          } else if (n.kind === 'backend-exited') {
            view.addNote('error', [n.message, ...n.stderrTail.slice(-5)].join('\n'));
          } else if (n.kind === 'error') {
            view.addNote('error', n.message);
          }
          break;
        }
      }
    });
    return () => {
      off();
      offLink();
    };
  }, [client]);

  const connected = state?.connection.status === 'connected';
  const caps = state?.capabilities;

  useEffect(() => {
    if (!connected || caps?.modelList === false) return;
    client
      .call('model/list', {})
      .then((r) => setModels((r as { models: ModelInfo[] }).models))
      .catch(() => setModels([]));
  }, [client, connected, caps?.modelList]);

  const run = (p: Promise<unknown>): void => {
    setError(undefined);
    p.catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  };

  return (
    <div class="panel">
      <ConnectionBanner state={state} linkUp={linkUp} onRetry={() => run(client.call('connection/retry', {}))} />
      <header class="toolbar">
        <span class="title" title={thread?.title}>
          {thread ? thread.title : 'New conversation'}
        </span>
        <button type="button" data-action="new-thread" disabled={!thread} onClick={() => run(client.call('thread/new', {}))}>
          New
        </button>
        <button type="button" data-action="history" disabled={!connected} onClick={() => setShowHistory((v) => !v)}>
          History
        </button>
      </header>
      {showHistory ? (
        <History
          client={client}
          canArchive={caps?.archive !== false}
          onOpened={() => setShowHistory(false)}
          onError={setError}
        />
      ) : null}
      <div class="scroller" ref={scroller}>
        <div class="transcript" ref={list} data-thread-id={thread?.id ?? ''} />
      </div>
      {approvals.length > 0 ? <ApprovalList client={client} approvals={approvals} /> : null}
      {error ? (
        <div class="error-text" role="alert">
          {error}
        </div>
      ) : null}
      <Composer
        client={client}
        state={state}
        models={models}
        running={turn !== undefined}
        canSteer={caps?.steer !== false}
        onError={setError}
      />
    </div>
  );
}
