/**
 * The "working" indicator: what the running turn is doing while nothing is being written. It shows from the moment a
 * message is sent until the first token arrives, and while a tool runs; tokens or the end of the turn hide it.
 */
import type { Item } from '@tether/protocol';
import type { ViewEvent } from '../shared/events';

/** Waiting for the model, or running a tool; undefined while text streams or no turn runs. */
export type Activity = { readonly kind: 'thinking' } | { readonly kind: 'tool'; readonly name: string } | undefined;

/** Waiting for the model's first token. */
export const THINKING: Activity = { kind: 'thinking' };

/** The activity after a batch of events, in order. */
export function afterEvents(current: Activity, events: readonly ViewEvent[]): Activity {
  let activity = current;
  for (const e of events) {
    switch (e.method) {
      case 'item/agentMessage/delta':
      case 'item/reasoning/delta':
        if (activity?.kind !== 'tool') activity = undefined;
        break;
      case 'turn/started':
        activity ??= THINKING;
        break;
      case 'item/started':
        if (e.params.item.type === 'toolCall') activity = { kind: 'tool', name: e.params.item.content.toolName };
        break;
      case 'item/completed':
        // The model reads the tool's result next: waiting for it again.
        if (e.params.item.type === 'toolCall' && activity?.kind === 'tool') activity = THINKING;
        break;
      case 'turn/completed':
        activity = undefined;
        break;
    }
  }
  return activity;
}

/** The activity of a snapshot: a running turn waits for a token unless its last item is text still being written. */
export function ofSnapshot(running: boolean, items: readonly Item[]): Activity {
  if (!running) return undefined;
  const last = items.at(-1);
  if (last?.status === 'inProgress') {
    if (last.type === 'toolCall') return { kind: 'tool', name: last.content.toolName };
    if ((last.type === 'agentMessage' || last.type === 'reasoning') && last.content.text) return undefined;
  }
  return THINKING;
}

/** What the indicator says; a tool waiting for the reader's approval says so. */
export function activityText(activity: NonNullable<Activity>, awaitingApproval: boolean): string {
  if (activity.kind === 'thinking') return 'Working…';
  // A hand-over is the agent waiting on the user, not a tool running.
  if (activity.name === 'page_ask_user') return 'Waiting for your reply…';
  return awaitingApproval ? `Waiting for your approval to run ${activity.name}…` : `Running ${activity.name}…`;
}
