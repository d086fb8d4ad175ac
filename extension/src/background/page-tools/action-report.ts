/**
 * The words of an action's answer: what was done, and what it changed (dialogs, page errors, focus, the changed
 * region), so the model sees the effect without another round trip.
 */
import type { ActResult, AgentAction, DialogPolicy } from '../../shared/agent-contract';
import type { PageToolCall } from './page-tool-specs';

/** The agent's dialog policy from a call's `dialog` and `promptText`. */
export function dialogOf(args: { dialog?: 'accept' | 'dismiss'; promptText?: string }): DialogPolicy | undefined {
  if (args.dialog === undefined) return undefined;
  return {
    accept: args.dialog === 'accept',
    ...(args.promptText === undefined ? {} : { promptText: args.promptText }),
  };
}

/** The refs a call names, in order: the elements its card describes and outlines. */
export function callRefs(call: PageToolCall): string[] {
  if (call.tool === 'page_fill_form') return call.args.fields.map((f) => f.ref);
  if (call.tool === 'page_drag') return [call.args.from, call.args.to];
  if ('ref' in call.args && typeof call.args.ref === 'string') return [call.args.ref];
  return [];
}

/** The first line of an action's answer: what was done, to which ref. */
export function doneLine(a: AgentAction, ref: string | undefined): string {
  if (a.kind === 'press') return `Pressed ${a.key}${ref ? ` in ${ref}` : ''}.`;
  if (a.kind === 'scroll' && !ref) return `Scrolled the page by ${a.dy} px.`;
  return `${actionWord(a)} ${ref ?? 'the page'}.`;
}

function actionWord(a: AgentAction): string {
  switch (a.kind) {
    case 'click':
      return a.double ? 'Double-clicked' : a.button === 'right' ? 'Right-clicked' : 'Clicked';
    case 'type':
      return a.submit ? 'Typed and pressed Enter in' : 'Typed into';
    case 'fill':
      return 'Filled';
    case 'select':
      return 'Selected in';
    case 'check':
      return a.checked ? 'Checked' : 'Unchecked';
    case 'hover':
      return 'Hovered over';
    case 'press':
      return `Pressed ${a.key} in`;
    case 'scroll':
      return 'Scrolled';
    case 'drag':
      return 'Dragged';
    case 'upload':
      return `Gave ${a.files.length === 1 ? 'a file' : `${a.files.length} files`} to`;
  }
}

/**
 * An action's effect as lines for the model: dialogs and how they were answered, page errors, the focus and the
 * changed region, refs rewritten by `rw` to the tab's.
 */
export function reportLines(r: ActResult | undefined, rw: (lines: readonly string[]) => string[]): string[] {
  if (!r) return [];
  const out: string[] = [];
  for (const d of r.dialogs) {
    const hint = d.accepted ? '' : ' (call again with dialog: "accept" to accept it)';
    out.push(
      `A ${d.type} dialog opened: ${JSON.stringify(d.message)}; it was ${d.accepted ? 'accepted' : 'dismissed'}${hint}.`,
    );
  }
  if (r.errors.length > 0) out.push(`Page errors: ${r.errors.join(' | ')}`);
  for (const limit of r.limits ?? []) out.push(`Note: ${limit}`);
  if (r.focus) out.push(`Focus: ${rw([r.focus])[0]}`);
  if (r.changed.length > 0) out.push('Changed:', ...rw(r.changed));
  else if (!r.unloading) out.push('Nothing on the page changed.');
  return out;
}
