/**
 * What a synthetic action could not do that a user's input would, in plain words for the model. Said only when it
 * may explain what the model sees (an action after which nothing changed, a control whose own UI needs a real
 * user), so an action that worked is not padded with caveats.
 */
import type { AgentAction } from '../shared/agent-contract';

/** What the action left behind, as far as the limits care. */
export interface ActOutcome {
  readonly nothingChanged: boolean;
  readonly copied: boolean;
}

const UNTRUSTED =
  'the events were synthetic (isTrusted false): a page that checks isTrusted ignores them, and they give no user ' +
  'activation (no popup, file picker, clipboard or fullscreen); trusted input (Chrome, when allowed) does';

/** The limits that apply to `action` on `el` with this outcome; empty when none do. */
export function syntheticLimits(action: AgentAction, el: Element | undefined, outcome: ActOutcome): string[] {
  const out: string[] = [];
  if (action.kind === 'click' && el instanceof HTMLInputElement && el.type === 'file') {
    out.push('A synthetic click cannot open the file picker: use page_upload to give the input files.');
  } else if (action.kind === 'click' && el instanceof HTMLSelectElement) {
    out.push('A synthetic click cannot open the native list of a <select>: use page_select.');
  } else if ((action.kind === 'click' || action.kind === 'drag') && outcome.nothingChanged) {
    out.push(`Nothing changed; ${UNTRUSTED}.`);
  }
  if (action.kind === 'hover' && outcome.nothingChanged) {
    out.push(
      'Nothing changed; synthetic hover does not apply CSS :hover, so a menu that opens only through CSS :hover ' +
        'stays closed (trusted input opens it).',
    );
  }
  if (outcome.copied) {
    out.push("Copied to the agent's own clipboard (Control+V pastes it); the system clipboard needs trusted input.");
  }
  return out;
}
