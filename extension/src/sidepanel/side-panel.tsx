/**
 * The side panel: connection banner, transcript (imperative, see transcript.ts), pending approvals, composer with
 * Stop and steering, new thread, history, model and backend pickers. Controls the backend cannot serve are greyed.
 */
import { ShareToggle } from '../shared/ui/share-toggle';
import { TrustedInputOffer } from '../shared/ui/trusted-input';
import { classVerb } from '../shared/action-risk';
import type { Thread, Turn } from '@tether/protocol';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { TaskTabView, WorkerPush } from '../shared/messages';
import type { Notice } from '../shared/records';
import { ApprovalAnnouncer, ApprovalList } from '../shared/ui/approval-list';
import { ConnectionBanner } from '../shared/ui/connection-banner';
import { useModels, useWorker } from '../shared/ui/use-worker';
import type { WorkerClient } from '../shared/worker-client';
import { Composer } from './composer';
import { TaskMemberNote, TaskTabs } from './task-tabs';
import { TaskJoin } from '../shared/ui/task-join';
import { HandoverRequests } from './handover-request';
import { fillComposer } from './draft';
import { History } from './history';
import { useWelcome, Welcome } from './welcome';
import { inputText } from './interruption';
import { type Activity, afterEvents, ofSnapshot, THINKING } from './activity';
import { LiveStatus } from './live-status';
import { Transcript } from './transcript';
import { errorMessage } from '@tether/protocol';

/** The side panel app. */
export function SidePanel(props: { client: WorkerClient }) {
  const { client } = props;
  const [thread, setThread] = useState<Thread | null>(null);
  const [turn, setTurn] = useState<Turn | undefined>();
  const [showHistory, setShowHistory] = useState(false);
  const [showShare, setShowShare] = useState(false);
  // The page the tab shows now (it changes as the tab navigates; the thread's title does not).
  const [page, setPage] = useState<{ title: string; url: string }>();
  // The tabs of the conversation's task (the worker's task groups), and the one the agent is on.
  const [taskTabs, setTaskTabs] = useState<TaskTabView[]>([]);
  const [error, setError] = useState<string>();
  /** The site whose trusted input the worker offers (once per site), until allowed or dismissed. */
  const [trustedOffer, setTrustedOffer] = useState<string>();
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
  const [activity, setActivity] = useState<Activity>();
  const [following, setFollowing] = useState(true);
  // The last message put back in the composer by its Edit button (sending it starts a new turn).
  const [editing, setEditing] = useState<string>();
  // Text for the composer (the context menu's selection), put there once the composer can take it.
  const drafts = useRef<string[]>([]);
  const [draftCount, setDraftCount] = useState(0);

  const loadOlder = (): void => {
    const view = transcript.current;
    if (view?.showEarlier()) {
      setHasOlder(older.current.cursor !== undefined || view.hasEarlier);
      return;
    }
    const o = older.current;
    const cursor = o.cursor;
    if (!cursor) {
      // Everything of the last snapshot is shown and the server has nothing older.
      setHasOlder(false);
      return;
    }
    if (o.loading) return;
    o.loading = true;
    const snapshot = o.snapshot;
    client.call('thread/history', { cursor }).then(
      (page) => {
        // A newer snapshot (another thread, a reconnect) replaced what this page would extend.
        if (older.current.snapshot !== snapshot) return;
        o.loading = false;
        o.cursor = page.olderCursor ?? undefined;
        setHasOlder(o.cursor !== undefined);
        transcript.current?.prepend(page.items, page.unfinishedTurns);
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
    transcript.current.onFollowChange = setFollowing;
    transcript.current.onEdit = (text) => {
      setEditing(text);
      fillComposer(document, text, 'replace');
    };
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
        if (m.thread === null) setTaskTabs([]);
        setTurn(m.activeTurn?.status === 'running' ? m.activeTurn : undefined);
        if (m.resumeAfter !== undefined) {
          // A reconnect: the transcript goes on from what it has (older pages stay as they are).
          const running = m.activeTurn?.status === 'running';
          view.resume(m.items, m.unfinishedTurns ?? [], running, m.keptWorking === true);
          setActivity(ofSnapshot(running, m.items));
          break;
        }
        older.current = { cursor: m.olderCursor, snapshot: older.current.snapshot + 1, loading: false };
        view.reset(m.items, m.unfinishedTurns, m.keptWorkingFrom);
        setHasOlder(m.olderCursor !== undefined || view.hasEarlier);
        setActivity(ofSnapshot(m.activeTurn?.status === 'running', m.items));
        break;
      case 'events': {
        const seen = view.apply(m.events);
        setActivity((a) => afterEvents(a, m.events));
        if (seen.started) setTurn(seen.started);
        if (seen.completed) setTurn((t) => (t && t.id === seen.completed?.id ? undefined : t));
        break;
      }
      case 'task':
        setTaskTabs(m.tabs);
        break;
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
          setActivity(undefined);
        } else if (m.notice.kind === 'trusted-input-offer') setTrustedOffer(m.notice.origin);
        else showNotice(view, m.notice);
        break;
    }
  };
  const { state, linkUp, approvals, handovers } = useWorker(client, { onPush });

  const connected = state?.connection.status === 'connected';
  // Sharing with external agents is used rarely: one click away, and always in view while this tab is shared.
  const tabShared = thread !== null && (state?.mcp.shared.includes(thread.id) ?? false);
  // Shown because shared, it stays open when the user turns sharing off there, until they close it.
  useEffect(() => {
    if (tabShared) setShowShare(true);
  }, [tabShared]);
  const caps = state?.capabilities;
  const models = useModels(client, connected && caps?.modelList !== false);
  const welcome = useWelcome(turn !== undefined);

  useEffect(() => {
    if (!connected) return;
    for (const text of drafts.current.splice(0)) fillComposer(document, text);
  }, [draftCount, connected]);

  const running = turn !== undefined;
  // Esc stops the running turn, wherever the focus is in the panel.
  useEffect(() => {
    if (!running) return;
    const onKey = (e: KeyboardEvent): void => {
      if (e.key !== 'Escape' || e.defaultPrevented || e.isComposing) return;
      e.preventDefault();
      client.call('turn/interrupt', {}).catch((err: unknown) => setError(errorMessage(err)));
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [running, client]);

  const run = (p: Promise<unknown>): void => {
    setError(undefined);
    p.catch((e: unknown) => setError(errorMessage(e)));
  };

  return (
    <div class={running ? 'panel running' : 'panel'}>
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
        <button
          type="button"
          data-action="share"
          aria-expanded={showShare || tabShared}
          disabled={!connected && !tabShared}
          title="Let agents outside the browser (Claude Code, Codex, Cursor) ask to use this tab"
          // While shared it stays open: the user closes it after turning sharing off, not while clients use the tab.
          onClick={() => setShowShare((v) => tabShared || !v)}
        >
          Share
        </button>
      </header>
      {showShare || tabShared ? <ShareToggle client={client} state={state} /> : null}
      {thread && taskTabs.length > 0 ? <TaskTabs client={client} tabs={taskTabs} onError={setError} /> : null}
      {!thread && taskTabs.length > 0 ? <TaskMemberNote tabs={taskTabs} /> : null}
      {!thread ? <TaskJoin client={client} refreshKey={taskTabs.map((t) => t.tabId).join(',')} /> : null}
      {showHistory ? (
        <History
          client={client}
          canArchive={caps?.archive !== false}
          currentThreadId={thread?.id}
          onOpened={() => setShowHistory(false)}
          onError={setError}
        />
      ) : null}
      <div class="scroll-area">
        <div class="scroller" ref={scroller}>
          {/* One box around everything that scrolls: the transcript watches its size to keep the reader's place. */}
          <div class="scroll-content">
            {welcome && !thread ? (
              <Welcome state={state} models={models} onPrompt={(text) => fillComposer(document, text, 'replace')} />
            ) : null}
            {hasOlder ? (
              <button type="button" class="older" data-action="older" onClick={loadOlder}>
                Earlier messages
              </button>
            ) : null}
            <div
              class="transcript"
              ref={list}
              data-thread-id={thread?.id ?? ''}
              role="log"
              aria-live="polite"
              aria-relevant="additions"
              aria-label="Conversation"
            />
            <LiveStatus activity={activity} awaitingApproval={approvals.length > 0} />
          </div>
        </div>
        {following ? null : (
          <button
            type="button"
            class="jump-latest"
            data-action="jump-latest"
            aria-label="Jump to the latest message"
            onClick={() => transcript.current?.jumpToLatest()}
          >
            ↓ Latest
          </button>
        )}
      </div>
      <HandoverRequests client={client} handovers={handovers} />
      <ApprovalAnnouncer approvals={approvals} />
      {approvals.length > 0 ? <ApprovalList client={client} approvals={approvals} /> : null}
      {trustedOffer ? (
        <TrustedInputOffer client={client} origin={trustedOffer} onClose={() => setTrustedOffer(undefined)} />
      ) : null}
      {error ? (
        <div class="error-text" role="alert">
          {error}
        </div>
      ) : null}
      <Composer
        client={client}
        state={state}
        models={models}
        running={running}
        canSteer={caps?.steer !== false}
        onSteer={(text) => transcript.current?.addSteer(text) ?? (() => undefined)}
        onSending={() => {
          setEditing(undefined);
          setActivity((a) => a ?? THINKING);
        }}
        onSendFailed={() => setActivity(undefined)}
        recall={() => transcript.current?.lastUserText()}
        editing={editing}
        onCancelEdit={() => {
          setEditing(undefined);
          fillComposer(document, '', 'replace');
        }}
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
  } else if (n.kind === 'call-withdrawn') {
    view.addNote('note', n.summary);
  }
}
