/**
 * One pending approval: what is asked in the extension's own words, the command or arguments in full, and the choices
 * the worker accepts for it. The labels are the extension's own words (never the model's) and say exactly how far each
 * choice reaches. Which choices are offered is decided by `offeredChoices`; this file only orders and groups them.
 */
import { useState } from 'preact/hooks';
import { z } from 'zod';
import { classOnSite } from '../action-risk';
import { offeredChoices } from '../approval-choices';
import type { ApprovalChoice, PendingApproval } from '../records';
import { errorMessage } from '@tether/protocol';

/** What a choice allows or denies, for this approval. */
export function choiceLabel(a: PendingApproval, choice: ApprovalChoice): string {
  switch (choice) {
    case 'allow':
      return 'Allow once';
    case 'allow_session':
      if (a.page && a.caller)
        return `Allow ${classOnSite(a.page.toolClass, a.origin)} for ${a.caller.name}, this connection only`;
      if (a.page) return `Allow ${classOnSite(a.page.toolClass, a.origin)} for this thread`;
      if (a.source === 'client-tool') return `Allow for this thread on ${a.origin}`;
      return a.sessionScope === 'command'
        ? 'Allow this exact command for this thread'
        : `Allow ${a.toolName} for this thread`;
    case 'deny':
      return 'Deny';
    case 'always_allow_site':
      return `Always allow ${a.page ? classOnSite(a.page.toolClass, a.origin) : `${a.toolName} on ${a.origin}`}`;
    case 'always_deny_site':
      return `Always deny ${a.page ? classOnSite(a.page.toolClass, a.origin) : `${a.toolName} on ${a.origin}`}`;
  }
}

const PRIMARY: readonly ApprovalChoice[] = ['allow', 'deny'];

/**
 * The offered choices in two rows: the one-time answers (Allow once, Deny) first, then the choices that are remembered
 * (the thread grant, then the site rules), so a remembered choice is never mistaken for the one-time Deny beside it.
 */
export function choiceGroups(a: PendingApproval): { primary: ApprovalChoice[]; remember: ApprovalChoice[] } {
  const offered = offeredChoices(a);
  return {
    primary: PRIMARY.filter((c) => offered.includes(c)),
    remember: offered.filter((c) => !PRIMARY.includes(c)),
  };
}

// Backends name the command `command`: a string (the built-in bash, ACP) or an argv array (some Codex versions).
const CommandArguments = z.object({ command: z.union([z.string(), z.array(z.string())]) }).passthrough();

/** The command line a server approval would run, and its other arguments; undefined for anything that runs no command. */
export function commandOf(a: PendingApproval): { command: string; rest: Record<string, unknown> } | undefined {
  if (a.source !== 'server') return undefined;
  const parsed = CommandArguments.safeParse(a.arguments);
  if (!parsed.success) return undefined;
  const { command, ...rest } = parsed.data;
  const line = typeof command === 'string' ? command : command.join(' ');
  return line.trim() ? { command: line, rest } : undefined;
}

/** The card's question: a server approval acts on this computer, a page tool on the page's origin. */
export function approvalQuestion(a: PendingApproval): string {
  if (a.page?.toolClass === 'act') return 'Let the agent act on this page?';
  if (a.toolName === 'tabs_open') return 'Let the agent open a page in a new tab?';
  if (a.page?.toolClass === 'navigate') return `Let the agent open a page in ${a.page.tab ? 'another' : 'this'} tab?`;
  if (a.source === 'client-tool') return `Let the agent read ${a.origin}?`;
  return commandOf(a) ? 'Run a command on this computer?' : `Let ${a.toolName} act on this computer?`;
}

function argumentsText(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const text = JSON.stringify(value, null, 2);
  if (text === undefined || text === '{}') return undefined;
  return text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
}

/** An approval card; `onDecide` must only be called from a user's click. */
export function ApprovalCard(props: {
  approval: PendingApproval;
  onDecide: (choice: ApprovalChoice) => Promise<void>;
}) {
  const a = props.approval;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const decide = async (choice: ApprovalChoice): Promise<void> => {
    setBusy(true);
    setError(undefined);
    try {
      await props.onDecide(choice);
    } catch (e) {
      setError(errorMessage(e));
      setBusy(false);
    }
  };
  const command = commandOf(a);
  const args = argumentsText(command ? (Object.keys(command.rest).length > 0 ? command.rest : undefined) : a.arguments);
  const { primary, remember } = choiceGroups(a);
  const button = (choice: ApprovalChoice) => (
    <button
      type="button"
      class={choice.includes('deny') ? 'deny' : 'allow'}
      data-choice={choice}
      disabled={busy}
      onClick={(e) => {
        // Decisions come from real clicks only.
        if (e.isTrusted) void decide(choice);
      }}
    >
      {choiceLabel(a, choice)}
    </button>
  );
  return (
    <section class="approval" aria-label={approvalQuestion(a)} data-approval-key={a.key} data-tool={a.toolName}>
      <div class="approval-head">
        <strong class="question">{approvalQuestion(a)}</strong>
        <div class="asker">
          {a.caller ? (
            <>
              Asked by <strong class="caller">{`${a.caller.name} ${a.caller.version ?? ''}`.trim()}</strong>, an agent
              outside the browser (the name is its own claim), for page tool <code>{a.toolName}</code> on{' '}
              <span class="origin">{a.origin}</span>
              {a.page?.tab ? <TabName title={a.page.tab.title} /> : null}
            </>
          ) : a.source === 'client-tool' ? (
            <>
              Page tool <code>{a.toolName}</code> on <span class="origin">{a.origin}</span>
              {a.page?.tab ? <TabName title={a.page.tab.title} /> : null}
            </>
          ) : (
            <>
              <code>{a.toolName}</code>, asked while this tab shows <span class="origin">{a.origin}</span>
            </>
          )}
        </div>
      </div>
      {command ? <pre class="command">{command.command}</pre> : null}
      {/* A backend's preview is often the command again (Codex, Claude, Gemini): shown once, in the command box. */}
      {command && sameText(a.preview, command.command) ? null : <div class="preview">{a.preview}</div>}
      {a.page?.value !== undefined ? (
        <pre class="value" title="What the agent supplied">
          {a.page.value}
        </pre>
      ) : null}
      {args ? <pre class="args">{args}</pre> : null}
      {a.page && a.page.highRisk.length > 0 ? (
        <div class="high-risk" role="note">
          <strong>Asks every time:</strong> {a.page.highRisk.join(' ')}
        </div>
      ) : null}
      <div class="choices primary">{primary.map(button)}</div>
      {remember.length > 0 ? (
        <div class="choices remember">
          <span class="remember-label">Remember:</span>
          {remember.map(button)}
        </div>
      ) : null}
      {error ? <div class="error-text">{error}</div> : null}
    </section>
  );
}

/** Names the task's tab a page tool acts on when it is not the conversation's own tab. */
function TabName(props: { title: string }) {
  return (
    <>
      {' '}
      in the task's tab <span class="tab">“{props.title}”</span>
    </>
  );
}

/** Whether a preview only repeats the command (maybe in backticks, maybe with "Run" before it). */
function sameText(preview: string, command: string): boolean {
  const bare = (t: string) =>
    t
      .replace(/[`\s]+/g, ' ')
      .replace(/^ ?(run|execute)?:? ?/i, '')
      .trim();
  return bare(preview) === bare(command);
}
