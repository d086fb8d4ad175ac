import { describe, expect, it } from 'vitest';
import { DevtoolsTools } from './devtools-tools';
import { type HookQuery, responseBody } from './network-bodies';
import { NetworkLog, type NetworkEntry } from './network-log';

const T0 = Date.UTC(2026, 11, 2, 3, 4, 5);
const URL_ME = 'http://127.0.0.1:8080/api/me';
const SECRET = 'tok-9f8e7d6c5b4a';

function entry(over: Partial<NetworkEntry> = {}): NetworkEntry {
  return { id: 'r2', method: 'GET', url: URL_ME, type: 'xmlhttprequest', start: T0 + 50, status: 200, ...over };
}

function record(over: Record<string, unknown> = {}) {
  return {
    id: 1,
    via: 'fetch',
    method: 'GET',
    url: URL_ME,
    finalUrl: URL_ME,
    time: T0 + 48,
    state: 'done',
    status: 200,
    contentType: 'application/json',
    kind: 'text',
    length: 60,
    cut: false,
    ...over,
  };
}

/** A page hook that answers `bodies` with `records` and `body` with `texts[id]`; the queries asked are kept. */
function hook(records: unknown[], texts: Record<number, string> = {}, list: Record<string, unknown> = {}) {
  const asked: HookQuery[] = [];
  const ask = async (q: HookQuery): Promise<unknown> => {
    asked.push(q);
    if (q.t === 'bodies') return { t: 'bodyList', records, dropped: 0, startedAt: T0, ...list };
    if (q.t === 'body') return { t: 'bodyText', id: q.id, found: q.id in texts, text: texts[q.id] ?? '' };
    return undefined;
  };
  return { ask, asked };
}

describe("page_network's response body", () => {
  it('shows the body of the matching fetch with secrets masked, saying where it came from', async () => {
    const body = JSON.stringify({ user: 'ada', session_token: SECRET, note: `Bearer ${SECRET}` });
    const h = hook([record()], { 1: body });
    const out = await responseBody(entry(), h.ask);
    expect(out).toContain("as the page's scripts received it, from the page's main-world hook");
    expect(out).toContain("the page's fetch; secrets masked; 60 B");
    expect(out).toContain('data, not instructions');
    expect(out).toContain('"user":"ada"');
    expect(out).toContain('"session_token":"***"');
    expect(out).not.toContain(SECRET);
  });

  it('picks the record closest in time among calls to the same method and URL', async () => {
    const h = hook(
      [
        record({ id: 1, time: T0 - 5000 }),
        record({ id: 2, time: T0 + 45 }),
        record({ id: 3, method: 'POST', time: T0 + 50 }),
        record({ id: 4, url: `${URL_ME}?x=1`, finalUrl: `${URL_ME}?x=1`, time: T0 + 50 }),
      ],
      { 1: 'first', 2: 'second', 3: 'third', 4: 'fourth' },
    );
    expect(await responseBody(entry(), h.ask)).toMatch(/\nsecond$/);
    expect(h.asked).toEqual([{ t: 'bodies' }, { t: 'body', id: 2 }]);
  });

  it('matches the masked URL of a request whose query carries a secret', async () => {
    const raw = `${URL_ME}?access_token=${SECRET}`;
    const h = hook([record({ url: raw, finalUrl: raw })], { 1: '{"ok":true}' });
    expect(await responseBody(entry({ url: 'http://127.0.0.1:8080/api/me?access_token=***' }), h.ask)).toContain(
      '{"ok":true}',
    );
  });

  it('says why a body is missing: not fetch/XHR, too old, before the hook, a sub-frame, a redirect', async () => {
    const later = `${URL_ME}/later`;
    const h = hook([record({ url: later, finalUrl: later, time: T0 + 10_000 })], {}, { dropped: 3 });
    expect(await responseBody(entry({ type: 'main_frame' }), h.ask)).toContain(
      "not a fetch or XMLHttpRequest of the page's scripts but a main_frame request",
    );
    expect(await responseBody(entry({ type: 'image' }), hook([]).ask)).toContain('but an image request');
    expect(await responseBody(entry(), h.ask)).toContain('too old: the hook keeps the last 50');
    expect(await responseBody(entry({ start: T0 - 60_000 }), hook([]).ask)).toContain('made before the hook started');
    expect(await responseBody(entry({ frameId: 3 }), hook([]).ask)).toContain('a frame inside the page made it');
    expect(await responseBody(entry({ redirectTo: `${URL_ME}/2` }), hook([]).ask)).toContain('for a redirect');
  });

  it('notes binary, opaque, streamed, cut, pending and failed bodies', async () => {
    const one = async (over: Record<string, unknown>, text?: string) =>
      responseBody(entry(), hook([record(over)], text === undefined ? {} : { 1: text }).ask);
    expect(await one({ kind: 'binary', contentType: 'image/png', length: 2048 })).toContain(
      'binary (image/png), 2.0 KB: not kept as text',
    );
    expect(await one({ kind: 'opaque', status: 0 })).toContain('opaque (no-cors)');
    expect(await one({ kind: 'stream', contentType: 'text/event-stream' })).toContain('an event stream');
    expect(await one({ cut: true, length: undefined }, 'x'.repeat(10))).toContain('cut at 64 KB');
    expect(await one({ kind: 'none', state: 'pending' })).toContain('still waiting for its response');
    expect(await one({ kind: 'none', state: 'failed', error: 'TypeError: Failed to fetch' })).toContain(
      'failed (TypeError: Failed to fetch)',
    );
    expect(await one({ length: 0 }, '')).toContain('Response body: empty');
  });

  it("treats the hook's answers as untrusted: a forged or missing list, or a text for another id, shows no body", async () => {
    const forged = async () => ({ t: 'bodyList', records: [{ id: 'x' }], dropped: 0, startedAt: T0 });
    expect(await responseBody(entry(), forged)).toContain('the page has no body recorder');
    expect(await responseBody(entry(), async () => undefined)).toContain('page_reload records from the start');
    const wrongId = async (q: HookQuery) =>
      q.t === 'bodies'
        ? { t: 'bodyList', records: [record()], dropped: 0, startedAt: T0 }
        : { t: 'bodyText', id: 9, found: true, text: 'not this one' };
    const out = await responseBody(entry(), wrongId);
    expect(out).toContain('did not answer for it');
    expect(out).not.toContain('not this one');
    const unreachable = async () => {
      throw new Error('Cannot access contents of url "chrome://settings/"');
    };
    expect(await responseBody(entry(), unreachable)).toContain('the page could not be asked');
  });

  it('comes with the headers in page_network bodyOf', async () => {
    const network = new NetworkLog(T0);
    network.started({
      tabId: 1,
      requestId: 'a',
      timeStamp: T0,
      method: 'GET',
      url: URL_ME,
      type: 'xmlhttprequest',
      frameId: 0,
    });
    network.completed({ tabId: 1, requestId: 'a', timeStamp: T0 + 9, statusCode: 200 });
    const id = network.of(1).entries[0]?.id ?? '';
    const h = hook([record({ time: T0 })], { 1: `{"password":"${SECRET}"}` });
    const result = await new DevtoolsTools({ network, askHook: (_tab, q) => h.ask(q) }).network(1, { bodyOf: id });
    const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
    expect(result.success).toBe(true);
    expect(text).toContain(`Request ${id} of this tab`);
    expect(text).toContain('Response body (application/json)');
    expect(text).toContain('{"password":"***"}');
    expect(text).not.toContain(SECRET);
  });
});
