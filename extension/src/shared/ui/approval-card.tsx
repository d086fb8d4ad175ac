/**
 * One pending approval: tool, preview, arguments, the page's origin, and the choices the worker accepts for it. The
 * labels are the extension's own words (never the model's) and say exactly how far each choice reaches.
 */
import { useState } from 'preact/hooks';
import { offeredChoices } from '../approval-choices';
import type { ApprovalChoice, PendingApproval } from '../records';
import { errorMessage } from '@tether/protocol';

/** What a choice allows or denies, for this approval. */
export function choiceLabel(a: PendingApproval, choice: ApprovalChoice): string {
  switch (choice) {
    case 'allow':
      return 'Allow once';
    case 'allow_session':
      if (a.source === 'client-tool') return `Allow for this thread on ${a.origin}`;
      return a.sessionScope === 'command'
        ? 'Allow this exact command for this thread'
        : `Allow ${a.toolName} for this thread`;
    case 'deny':
      return 'Deny';
    case 'always_allow_site':
      return `Always allow ${a.toolName} on ${a.origin}`;
    case 'always_deny_site':
      return `Always deny ${a.toolName} on ${a.origin}`;
  }
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
  const args = a.arguments === undefined ? undefined : JSON.stringify(a.arguments, null, 2);
  return (
    <div class="approval" data-approval-key={a.key} data-tool={a.toolName}>
      <div class="approval-head">
        {a.source === 'client-tool' ? (
          <>
            <strong>{a.toolName}</strong> wants to run on <span class="origin">{a.origin}</span>
          </>
        ) : (
          <>
            <strong>{a.toolName}</strong> wants to act on your computer (asked while this tab shows{' '}
            <span class="origin">{a.origin}</span>)
          </>
        )}
      </div>
      <div class="preview">{a.preview}</div>
      {args && args !== '{}' ? <pre class="args">{args.length > 2000 ? `${args.slice(0, 2000)}…` : args}</pre> : null}
      <div class="choices">
        {offeredChoices(a).map((choice) => (
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
        ))}
      </div>
      {error ? <div class="error-text">{error}</div> : null}
    </div>
  );
}
