/**
 * The notifications the worker passes on to pages: the host's, by the protocol's own table (`hostNotifications`).
 * Each is checked in place against its row's schema, never copied: the protocol's schemas only validate (no
 * defaults, no transforms), so a value that passes already has its row's input type. Text deltas, most of what a
 * stream carries, take a hand-written check of their four string fields instead of the schema walk (0.01 us against
 * 0.2 us each, measured under Node with zod jitless); a test holds the two to the same verdicts.
 */
import { hostNotifications, type HostNotifications } from '@tether/protocol';
import type { z } from 'zod';

/** Wire names of the notifications pages may receive. */
export type EventMethod = keyof HostNotifications;

/** Params of notification `M`, as its schema accepts them. */
export type EventParams<M extends EventMethod> = z.input<HostNotifications[M]>;

type EventMap = { readonly [M in EventMethod]: { readonly method: M; readonly params: EventParams<M> } };

/** One checked notification; narrow it by `method`. */
export type ViewEvent<M extends EventMethod = EventMethod> = EventMap[M];

/** A notification about one text delta (agent message or reasoning). */
export type DeltaEvent = ViewEvent<'item/agentMessage/delta' | 'item/reasoning/delta'>;

type Check = (params: unknown) => boolean;

/** The fast checks: each must accept exactly what its row's schema accepts (see events.test.ts). */
const isDeltaParams: Check = (p) =>
  typeof p === 'object' &&
  p !== null &&
  'threadId' in p &&
  typeof p.threadId === 'string' &&
  'turnId' in p &&
  typeof p.turnId === 'string' &&
  'itemId' in p &&
  typeof p.itemId === 'string' &&
  'delta' in p &&
  typeof p.delta === 'string';

const fastChecks: { readonly [M in EventMethod]?: Check } = {
  'item/agentMessage/delta': isDeltaParams,
  'item/reasoning/delta': isDeltaParams,
};

/** True for a method in the table. */
export function isEventMethod(method: string): method is EventMethod {
  return Object.hasOwn(hostNotifications, method);
}

/** True when `value` is a notification of the table whose params its row accepts. */
export function isViewEvent(value: unknown): value is ViewEvent {
  if (typeof value !== 'object' || value === null || !('method' in value) || typeof value.method !== 'string')
    return false;
  if (!isEventMethod(value.method)) return false;
  const params = 'params' in value ? value.params : undefined;
  const fast = fastChecks[value.method];
  return fast ? fast(params) : hostNotifications[value.method].safeParse(params).success;
}

/** Why `params` do not fit notification `method`, on one line for a log or a note (slow: only for rejected events). */
export function eventIssue(method: EventMethod, params: unknown): string {
  const result = hostNotifications[method].safeParse(params);
  if (result.success) return 'no problem found';
  return result.error.issues.map((i) => `${i.path.join('.') || 'params'}: ${i.message}`).join('; ');
}
