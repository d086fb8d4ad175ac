import { fc, test } from '@fast-check/vitest';
import { hostNotifications } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import { eventIssue, isEventMethod, isViewEvent } from './events';
import { WorkerToView } from './messages';

const delta = { threadId: 't', turnId: 'u', itemId: 'i', delta: 'text ' };

/** Params a backend might send as a delta, right and wrong. */
const deltaSamples: unknown[] = [
  delta,
  { ...delta, extra: { nested: true } },
  { ...delta, delta: '' },
  { ...delta, delta: 5 },
  { ...delta, itemId: null },
  { threadId: 't', turnId: 'u', itemId: 'i' },
  { turnId: 'u', itemId: 'i', delta: 'x' },
  Object.create({ threadId: 't', turnId: 'u', itemId: 'i', delta: 'inherited' }),
  [],
  'text',
  null,
  undefined,
];

describe('isViewEvent', () => {
  it.each(['item/agentMessage/delta', 'item/reasoning/delta'] as const)(
    'gives the schema verdict for every %s sample by its fast check',
    (method) => {
      for (const params of deltaSamples) {
        expect([params, isViewEvent({ method, params })]).toEqual([
          params,
          hostNotifications[method].safeParse(params).success,
        ]);
      }
    },
  );

  const field = fc.oneof(fc.string(), fc.anything());
  const params = fc.oneof(
    fc.record({ threadId: field, turnId: field, itemId: field, delta: field }, { requiredKeys: [] }),
    fc.anything(),
  );
  test.prop([params])('agrees with the delta schema on any params', (p) => {
    expect(isViewEvent({ method: 'item/agentMessage/delta', params: p })).toBe(
      hostNotifications['item/agentMessage/delta'].safeParse(p).success,
    );
  });

  it('accepts a notification of the table whose params fit its row', () => {
    const item = { id: 'i', type: 'agentMessage', status: 'completed', createdAtMs: 1, content: { text: 'hi' } };
    expect(isViewEvent({ method: 'item/completed', params: { threadId: 't', turnId: 'u', item } })).toBe(true);
    expect(isViewEvent({ method: 'warning', params: { message: 'slow' } })).toBe(true);
  });

  it('refuses unknown methods, malformed params and things that are not notifications', () => {
    expect(isViewEvent({ method: 'made/up', params: {} })).toBe(false);
    expect(
      isViewEvent({
        method: 'item/completed',
        params: { threadId: 't', turnId: 'u', item: { id: 'i', type: 'poem' } },
      }),
    ).toBe(false);
    expect(isViewEvent({ params: delta })).toBe(false);
    expect(isViewEvent('item/agentMessage/delta')).toBe(false);
    expect(isEventMethod('toString')).toBe(false);
  });

  it('says which field is wrong', () => {
    expect(eventIssue('item/agentMessage/delta', { ...delta, delta: 5 })).toMatch(/delta/);
  });
});

describe('WorkerToView', () => {
  it('reads an event batch on the page with the same checks, and refuses a batch holding a malformed event', () => {
    const good = { type: 'events', events: [{ method: 'item/agentMessage/delta', params: delta }] };
    expect(WorkerToView.parse(good)).toEqual(good);
    const bad = { type: 'events', events: [{ method: 'item/agentMessage/delta', params: { ...delta, delta: null } }] };
    expect(WorkerToView.safeParse(bad).success).toBe(false);
  });
});
