/** One pending approval: tool, preview, arguments, the page's origin, and the five choices. */
import { useState } from 'preact/hooks';
import type { ApprovalChoice, PendingApproval } from '../messages';

const LABELS: Record<ApprovalChoice, string> = {
  allow: 'Allow once',
  allow_session: 'Allow for this thread',
  always_allow_site: 'Always allow on this site',
  deny: 'Deny',
  always_deny_site: 'Always deny on this site',
};

/** The choices a card offers for an approval. */
export function choicesFor(a: PendingApproval): ApprovalChoice[] {
  const out: ApprovalChoice[] = [];
  if (a.choices.includes('allow')) out.push('allow');
  if (a.choices.includes('allow_session')) out.push('allow_session');
  const hasSite = a.origin.startsWith('http');
  if (hasSite && a.choices.includes('allow')) out.push('always_allow_site');
  out.push('deny');
  if (hasSite) out.push('always_deny_site');
  return out;
}

/** An approval card; `onDecide` must only be called from a user's click. */
export function ApprovalCard(props: { approval: PendingApproval; onDecide: (choice: ApprovalChoice) => Promise<void> }) {
  const a = props.approval;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const decide = async (choice: ApprovalChoice): Promise<void> => {
    setBusy(true);
    setError(undefined);
    try {
      await props.onDecide(choice);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setBusy(false);
    }
  };
  const args = a.arguments === undefined ? undefined : JSON.stringify(a.arguments, null, 2);
  return (
    <div class="approval" data-approval-key={a.key} data-tool={a.toolName}>
      <div class="approval-head">
        <strong>{a.toolName}</strong> wants to run on <span class="origin">{a.origin}</span>
      </div>
      <div class="preview">{a.preview}</div>
      {args && args !== '{}' ? <pre class="args">{args.length > 2000 ? `${args.slice(0, 2000)}…` : args}</pre> : null}
      <div class="choices">
        {choicesFor(a).map((choice) => (
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
            {LABELS[choice]}
          </button>
        ))}
      </div>
      {error ? <div class="error-text">{error}</div> : null}
    </div>
  );
}
