/**
 * The side panel: connection banner, transcript (imperative, see transcript.ts), pending approvals, composer with
 * Stop and steering, new thread, history, model and backend pickers. Controls the backend cannot serve are greyed.
 */
import { ShareToggle } from '../shared/ui/share-toggle';
import { classVerb } from '../shared/action-risk';
import type { Thread, Turn } from '@tether/protocol';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { WorkerPush } from '../shared/messages';
import type { Notice } from '../shared/records';
import { ApprovalList } from '../shared/ui/approval-list';
import { ConnectionBanner } from '../shared/ui/connection-banner';
import { useModels, useWorker } from '../shared/ui/use-worker';
import type { WorkerClient } from '../shared/worker-client';
import { Composer } from './composer';
import { fillComposer } from './draft';
import { History } from './history';
import { inputText } from './interruption';
import { Transcript } from './transcript';
import { errorMessage } from '@tether/protocol';

/** The side panel app. */
export function SidePanel(props: { client: WorkerClient }) {
  const { client } = props;
  const [thread, setThread] = useState<Thread | null>(null);
  const [turn, setTurn] = useState<Turn | undefined>();
  const [showHistory, setShowHistory] = useState(false);
  // The page the tab shows now (it changes as the tab navigates; the thread's title does not).
  const [page, setPage] = useState<{ title: string; url: string }>();
  const [error, setError] = useState<string>();
  const scroller = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const transcript = useRef<Transcript | undefined>(undefined);
  // Older history, one page at a time: the cursor of the next older page and the snapshot it belongs to.
  const older = useRef<{ cursor: string | undefined; snapshot: number; loading: boolean }>({
    cursor: undefined,
    snapshot: 0,
    loading: false,
  });
  const [hasOlder, setHasOlder] = useState(false);
  // Text for the composer (the context menu's selection), put there once the composer can take it.
  const drafts = useRef<string[]>([]);
  const [draftCount, setDraftCount] = useState(0);

  const loadOlder = (): void => {
    const o = older.current;
    const cursor = o.cursor;
    if (!cursor || o.loading) return;
    o.loading = true;
    const snapshot = o.snapshot;
    client.call('thread/history', { cursor }).then(
      (page) => {
        // A newer snapshot (another thread, a reconnect) replaced what this page would extend.
        if (older.current.snapshot !== snapshot) return;
        o.loading = false;
        o.cursor = page.olderCursor ?? undefined;
        setHasOlder(o.cursor !== undefined);
        transcript.current?.prepend(page.items);
      },
      (e: unknown) => {
        if (older.current.snapshot === snapshot) o.loading = false;
        setError(errorMessage(e));
      },
    );
  };

  // Declared before useWorker so the transcript exists when the first pushed messages are replayed to it.
  useEffect(() => {
    if (!scroller.current || !list.current) return;
    transcript.current = new Transcript(scroller.current, list.current);
    transcript.current.onNearTop = () => loadOlder();
    transcript.current.onRetry = (text) => {
      setError(undefined);
      const sent = client.call('turn/send', { text });
      sent.catch((e: unknown) => setError(errorMessage(e)));
      return sent;
    };
  }, []);

  const onPush = (m: WorkerPush): void => {
    const view = transcript.current;
    if (!view) return;
    switch (m.type) {
      case 'snapshot':
        setThread(m.thread);
        setTurn(m.activeTurn?.status === 'running' ? m.activeTurn : undefined);
        older.current = { cursor: m.olderCursor, snapshot: older.current.snapshot + 1, loading: false };
        setHasOlder(m.olderCursor !== undefined);
        view.reset(m.items);
        break;
      case 'events': {
        const seen = view.apply(m.events);
        if (seen.started) setTurn(seen.started);
        if (seen.completed) setTurn((t) => (t && t.id === seen.completed?.id ? undefined : t));
        break;
      }
      case 'tab':
        setPage({ title: m.title, url: m.url });
        break;
      case 'draft':
        drafts.current.push(m.text);
        setDraftCount((n) => n + 1);
        break;
      case 'notice':
        if (m.notice.kind === 'turn-interrupted') {
          const { turnId } = m.notice;
          view.interrupt(m.notice, turn?.id === turnId ? inputText(turn.input) : undefined);
          setTurn((t) => (t?.id === turnId ? undefined : t));
        } else showNotice(view, m.notice);
        break;
    }
  };
  const { state, linkUp, approvals } = useWorker(client, { onPush });

  const connected = state?.connection.status === 'connected';
  const caps = state?.capabilities;
  const models = useModels(client, connected && caps?.modelList !== false);

  useEffect(() => {
    if (!connected) return;
    for (const text of drafts.current.splice(0)) fillComposer(document, text);
  }, [draftCount, connected]);

  const run = (p: Promise<unknown>): void => {
    setError(undefined);
    p.catch((e: unknown) => setError(errorMessage(e)));
  };

  return (
    <div class="panel">
      <ConnectionBanner state={state} linkUp={linkUp} onRetry={() => run(client.call('connection/retry', {}))} />
      <header class="toolbar">
        <span class="title" title={[page?.url, thread && `Conversation: ${thread.title}`].filter(Boolean).join('\n')}>
          {page?.title || page?.url || thread?.title || 'New conversation'}
        </span>
        <button
          type="button"
          data-action="new-thread"
          disabled={!thread}
          onClick={() => run(client.call('thread/new', {}))}
        >
          New
        </button>
        <button type="button" data-action="history" disabled={!connected} onClick={() => setShowHistory((v) => !v)}>
          History
        </button>
      </header>
      <ShareToggle client={client} state={state} />
      {showHistory ? (
        <History
          client={client}
          canArchive={caps?.archive !== false}
          currentThreadId={thread?.id}
          onOpened={() => setShowHistory(false)}
          onError={setError}
        />
      ) : null}
      <div class="scroller" ref={scroller}>
        {/* One box around everything that scrolls: the transcript watches its size to keep the reader's place. */}
        <div class="scroll-content">
          {hasOlder ? (
            <button type="button" class="older" data-action="older" onClick={loadOlder}>
              Earlier messages
            </button>
          ) : null}
          <div class="transcript" ref={list} data-thread-id={thread?.id ?? ''} />
        </div>
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
        onSteer={(text) => transcript.current?.addSteer(text) ?? (() => undefined)}
        onError={setError}
      />
    </div>
  );
}

/** A notice as a line in the transcript. */
function showNotice(view: Transcript, n: Notice): void {
  if (n.kind === 'rule-decided') {
    const rule = `“always ${n.rule.decision} ${classVerb(n.rule.toolClass)} on this site”`;
    view.addNote(
      'rule',
      `${n.toolName} was ${n.rule.decision === 'allow' ? 'allowed' : 'denied'} on ${n.rule.origin} by your rule ${rule} (revoke it in Options).`,
    );
  } else if (n.kind === 'backend-exited') {
    view.addNote('error', [n.message, ...n.stderrTail.slice(-5)].join('\n'));
  } else if (n.kind === 'error') {
    view.addNote('error', n.message);
  } else if (n.kind === 'tool-ran') {
    view.addNote('rule', n.summary);
  }
}
