/**
 * The tabs of the conversation's task in the side panel: which tabs the agent may read and act on, the one it is on,
 * how each joined; the user takes a tab out, or adds one of the window's other web pages ("Add a tab to the task").
 */
import { errorMessage } from '@tether/protocol';
import { useState } from 'preact/hooks';
import type { TaskTabView } from '../shared/messages';
import type { ViewOpResult } from '../shared/operations';
import type { WorkerClient } from '../shared/worker-client';
import './task-tabs.css';

const ROLE: Record<TaskTabView['role'], string> = {
  conversation: 'this tab',
  agent: 'opened by the agent',
  user: 'added by you',
};

/** The task's tabs, with "Remove" on the tabs that can leave it and the picker that adds one. */
export function TaskTabs(props: {
  client: WorkerClient;
  tabs: readonly TaskTabView[];
  onError(message: string): void;
}) {
  const { client, tabs, onError } = props;
  const [others, setOthers] = useState<ViewOpResult<'task/others'>['tabs']>();
  const run = (p: Promise<unknown>): void => {
    p.catch((e: unknown) => onError(errorMessage(e)));
  };
  const pick = (): void =>
    run(
      client.call('task/others', {}).then((r) => {
        setOthers(r.tabs);
      }),
    );
  const here = tabs.find((t) => t.agentIsHere);
  return (
    <details class="task-tabs" data-task-tabs={tabs.length} open={tabs.length > 1}>
      <summary>
        {tabs.length === 1 ? 'The agent works in this tab' : `Task tabs (${tabs.length})`}
        {here && tabs.length > 1 ? ` · agent on “${here.title || here.url}”` : ''}
      </summary>
      <ul aria-label="Tabs the agent may use">
        {tabs.map((t) => (
          <li class="task-tab" key={t.tabId} data-tab-id={t.tabId} data-agent-here={String(t.agentIsHere)}>
            <span class="task-tab-title" title={t.url}>
              {t.title || t.url}
            </span>
            <span class="task-tab-role">{t.agentIsHere ? `${ROLE[t.role]}, agent here` : ROLE[t.role]}</span>
            {t.role === 'conversation' ? null : (
              <button
                type="button"
                data-action="task-remove"
                title="Take this tab out of the task: the agent can no longer read or act on it"
                onClick={() => run(client.call('task/remove', { tabId: t.tabId }))}
              >
                Remove
              </button>
            )}
          </li>
        ))}
      </ul>
      {others === undefined ? (
        <button type="button" data-action="task-pick" onClick={pick}>
          Add a tab to the task…
        </button>
      ) : (
        <ul aria-label="Other tabs of this window">
          {others.length === 0 ? <li>No other web page in this window can be added.</li> : null}
          {others.map((t) => (
            <li class="task-tab" key={t.tabId} data-tab-id={t.tabId}>
              <span class="task-tab-title" title={t.url}>
                {t.title || t.url}
              </span>
              <button
                type="button"
                data-action="task-add"
                onClick={() => {
                  setOthers(undefined);
                  run(client.call('task/add', { tabId: t.tabId }));
                }}
              >
                Add
              </button>
            </li>
          ))}
          <li>
            <button type="button" onClick={() => setOthers(undefined)}>
              Cancel
            </button>
          </li>
        </ul>
      )}
    </details>
  );
}

/**
 * In the panel of a tab the agent uses for another tab's conversation: where that conversation is. The task's
 * approvals and hand-over requests show (and are answered) here too, so the user need not switch tabs for them.
 */
export function TaskMemberNote(props: { tabs: readonly TaskTabView[] }) {
  const home = props.tabs.find((t) => t.role === 'conversation');
  if (!home) return null;
  return (
    <p class="task-member-note" role="note">
      The agent uses this tab for a task whose conversation is in the tab “{home.title || home.url}”. What it asks you
      shows here too.
    </p>
  );
}
