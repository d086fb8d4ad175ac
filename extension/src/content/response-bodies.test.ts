import { describe, expect, it, vi } from 'vitest';
import { BODY_MAX, type BodyRecord, installResponseRecorder, RECORDS_MAX, type RecorderScope } from './response-bodies';

const BASE = 'http://127.0.0.1:8080/app/page.html';
const CHANNEL = 'test-channel';

/** A document stand-in: the channel is events on it, as on the page's document. */
function pageDocument(): EventTarget & { baseURI: string } {
  return Object.assign(new EventTarget(), { baseURI: BASE });
}

/** Sends `query` on the channel the way the worker does and returns the hook's reply. */
function ask(doc: EventTarget, query: object): { [k: string]: unknown } {
  let reply: string | undefined;
  const listener = (event: Event): void => {
    const detail = String((event as CustomEvent).detail);
    if (!detail.startsWith('{"t":"bodyList"') && !detail.startsWith('{"t":"bodyText"')) return;
    reply ??= detail;
  };
  doc.addEventListener(CHANNEL, listener);
  doc.dispatchEvent(new CustomEvent(CHANNEL, { detail: JSON.stringify(query) }));
  doc.removeEventListener(CHANNEL, listener);
  return reply === undefined ? {} : JSON.parse(reply);
}

/** A page whose network answers every fetch with `respond(url, init)`. */
function page(respond: (url: string, init?: RequestInit) => Response) {
  const doc = pageDocument();
  const calls: unknown[] = [];
  const scope: RecorderScope = {
    fetch: async function fetch(this: unknown, input: RequestInfo | URL, init?: RequestInit) {
      calls.push(this);
      return respond(String(input instanceof Request ? input.url : input), init);
    },
  };
  const original = scope.fetch;
  installResponseRecorder(scope, doc);
  doc.dispatchEvent(
    new CustomEvent('tether-page-hooks', { detail: JSON.stringify({ t: 'attach', channel: CHANNEL }) }),
  );
  const records = (): BodyRecord[] => (ask(doc, { t: 'bodies' }).records as BodyRecord[]) ?? [];
  const settled = async (): Promise<BodyRecord[]> => {
    await vi.waitFor(() => expect(records().every((r) => r.state === 'done' || r.state === 'failed')).toBe(true));
    return records();
  };
  const text = (id: number): unknown => ask(doc, { t: 'body', id }).text;
  return { doc, scope, original, calls, records, settled, text };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('the response recorder (fetch)', () => {
  it('keeps a JSON body as the page received it, keyed by method, absolute URL and time, and the page gets it whole', async () => {
    const p = page(() => json({ user: 'ada', session_token: 'tok-123' }));
    const before = Date.now();
    const response = await p.scope.fetch?.('../api/me', { method: 'post' });
    expect(await response?.json()).toEqual({ user: 'ada', session_token: 'tok-123' });
    const [record] = await p.settled();
    expect(record).toMatchObject({
      via: 'fetch',
      method: 'POST',
      url: 'http://127.0.0.1:8080/api/me',
      status: 200,
      contentType: 'application/json',
      kind: 'text',
      cut: false,
      length: JSON.stringify({ user: 'ada', session_token: 'tok-123' }).length,
    });
    expect(record?.time).toBeGreaterThanOrEqual(before);
    expect(p.text(record?.id ?? 0)).toBe('{"user":"ada","session_token":"tok-123"}');
  });

  it('cuts a large body at 64 KB and says so, while the page reads all of it', async () => {
    const big = 'x'.repeat(BODY_MAX + 5000);
    const p = page(() => new Response(big, { headers: { 'content-type': 'text/plain' } }));
    const response = await p.scope.fetch?.('/big');
    expect((await response?.text())?.length).toBe(big.length);
    const [record] = await p.settled();
    expect(record).toMatchObject({ kind: 'text', cut: true });
    expect(record?.length).toBeUndefined();
    expect(String(p.text(record?.id ?? 0)).length).toBe(BODY_MAX);
  });

  it("notes binary, event-stream and opaque bodies without reading them, and the page's stream is untouched", async () => {
    let streamed = false;
    const p = page((url) => {
      if (url.endsWith('/img'))
        return new Response(new Uint8Array([137, 80, 78, 71]), {
          headers: { 'content-type': 'image/png', 'content-length': '4' },
        });
      if (url.endsWith('/events'))
        return new Response(
          new ReadableStream({
            pull(controller) {
              if (streamed) controller.close();
              else controller.enqueue(new TextEncoder().encode('data: one\n\n'));
              streamed = true;
            },
          }),
          { headers: { 'content-type': 'text/event-stream' } },
        );
      const opaque = new Response(null, { status: 200 });
      Object.defineProperty(opaque, 'type', { value: 'opaque' });
      return opaque;
    });
    const image = await p.scope.fetch?.('/img');
    const events = await p.scope.fetch?.('/events');
    await p.scope.fetch?.('http://other.example/x', { mode: 'no-cors' });
    expect(new Uint8Array(await (image as Response).arrayBuffer())).toEqual(new Uint8Array([137, 80, 78, 71]));
    expect(await events?.text()).toBe('data: one\n\n');
    const records = await p.settled();
    expect(records.map((r) => [r.kind, r.length])).toEqual([
      ['binary', 4],
      ['stream', undefined],
      ['opaque', undefined],
    ]);
    expect(records.map((r) => p.text(r.id))).toEqual(['', '', '']);
  });

  it('passes the call through unchanged: same this, result and rejection, and a native-looking function', async () => {
    const p = page((url) => {
      if (url.includes('refused')) throw new TypeError('Failed to fetch');
      return json({ ok: true });
    });
    const fetchFn = p.scope.fetch;
    expect(fetchFn).not.toBe(p.original);
    expect(fetchFn?.name).toBe('fetch');
    expect(fetchFn?.length).toBe(p.original?.length);
    expect(Function.prototype.toString.call(fetchFn)).toContain('[native code]');
    const self = { marker: 1 };
    await fetchFn?.call(self, new Request(`${BASE}/../a`, { method: 'PUT' }), { method: 'DELETE' });
    expect(p.calls).toEqual([self]);
    expect(p.records()[0]).toMatchObject({ method: 'DELETE', url: 'http://127.0.0.1:8080/app/a' });
    await expect(fetchFn?.('/refused')).rejects.toThrow('Failed to fetch');
    const records = await p.settled();
    expect(records[1]).toMatchObject({ state: 'failed', error: 'TypeError: Failed to fetch' });
  });

  it('keeps the newest 50 and counts the dropped ones; unknown ids and forged messages get no body', async () => {
    const p = page((url) => new Response(url, { headers: { 'content-type': 'text/plain' } }));
    for (let i = 0; i < RECORDS_MAX + 5; i++) await (await p.scope.fetch?.(`/n/${i}`))?.text();
    const records = await p.settled();
    expect(records).toHaveLength(RECORDS_MAX);
    expect(records[0]?.url).toBe('http://127.0.0.1:8080/n/5');
    expect(ask(p.doc, { t: 'bodies' }).dropped).toBe(5);
    expect(ask(p.doc, { t: 'body', id: 1 })).toEqual({ t: 'bodyText', id: 1, found: false, text: '' });
    p.doc.dispatchEvent(new CustomEvent(CHANNEL, { detail: 'not json' }));
    expect(ask(p.doc, { t: 'other' })).toEqual({});
  });
});

/** An XMLHttpRequest stand-in with the browser's shape: methods and getters on the prototype, loadend after send. */
class FakeXhr extends EventTarget {
  static answer = { status: 200, type: 'application/json', text: '{"access_token":"abc"}' };
  private sent = false;
  private type = '';
  get responseType(): string {
    return this.type;
  }
  set responseType(value: string) {
    this.type = value;
  }
  open(_method: string, _url: string): void {}
  send(): void {
    this.sent = true;
    queueMicrotask(() => this.dispatchEvent(new Event('loadend')));
  }
  getResponseHeader(name: string): string | null {
    return name === 'content-type' ? FakeXhr.answer.type : null;
  }
  get status(): number {
    return this.sent ? FakeXhr.answer.status : 0;
  }
  get responseText(): string {
    return FakeXhr.answer.text;
  }
  get response(): unknown {
    return this.responseType === 'json' ? JSON.parse(FakeXhr.answer.text) : FakeXhr.answer.text;
  }
  get responseURL(): string {
    return 'http://127.0.0.1:8080/api/token';
  }
}

describe('the response recorder (XMLHttpRequest)', () => {
  it('keeps text and json responses of XHR, and notes binary ones', async () => {
    const doc = pageDocument();
    installResponseRecorder({ XMLHttpRequest: FakeXhr as unknown as { prototype: XMLHttpRequest } }, doc);
    doc.dispatchEvent(
      new CustomEvent('tether-page-hooks', { detail: JSON.stringify({ t: 'attach', channel: CHANNEL }) }),
    );
    const run = (responseType: string) => {
      const xhr = new FakeXhr();
      xhr.responseType = responseType;
      xhr.open('get', '/api/token');
      xhr.send();
      return new Promise<void>((resolve) => xhr.addEventListener('loadend', () => resolve()));
    };
    await run('');
    await run('json');
    await run('arraybuffer');
    const records = ask(doc, { t: 'bodies' }).records as BodyRecord[];
    expect(records.map((r) => [r.via, r.method, r.url, r.finalUrl, r.kind, r.status, r.state])).toEqual([
      ['xhr', 'GET', 'http://127.0.0.1:8080/api/token', 'http://127.0.0.1:8080/api/token', 'text', 200, 'done'],
      ['xhr', 'GET', 'http://127.0.0.1:8080/api/token', 'http://127.0.0.1:8080/api/token', 'text', 200, 'done'],
      ['xhr', 'GET', 'http://127.0.0.1:8080/api/token', 'http://127.0.0.1:8080/api/token', 'binary', 200, 'done'],
    ]);
    expect(ask(doc, { t: 'body', id: records[0]?.id }).text).toBe('{"access_token":"abc"}');
    expect(ask(doc, { t: 'body', id: records[1]?.id }).text).toBe('{"access_token":"abc"}');
    expect(Function.prototype.toString.call(FakeXhr.prototype.send)).toContain('[native code]');
  });
});
