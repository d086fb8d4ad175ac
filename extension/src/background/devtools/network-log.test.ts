import { describe, expect, it } from 'vitest';
import { maskHeader, NetworkLog, type RequestStart } from './network-log';
import { formatNetwork, formatRequest } from './network-report';

const T0 = Date.UTC(2026, 11, 2, 3, 4, 5);

function start(over: Partial<RequestStart> & { requestId: string }): RequestStart {
  return {
    tabId: 7,
    timeStamp: T0,
    method: 'GET',
    url: 'http://127.0.0.1:8080/',
    type: 'main_frame',
    frameId: 0,
    ...over,
  };
}

/** A page load with one 404 fetch (sent with a bearer token) and one refused connection. */
function pageWithFailures(log: NetworkLog): void {
  log.started(start({ requestId: '1' }));
  log.completed({ tabId: 7, requestId: '1', timeStamp: T0 + 40, statusCode: 200 });
  log.started(
    start({ requestId: '2', url: 'http://127.0.0.1:8080/api/missing', type: 'xmlhttprequest', timeStamp: T0 + 50 }),
  );
  log.sent({
    tabId: 7,
    requestId: '2',
    timeStamp: T0 + 50,
    requestHeaders: [
      { name: 'Authorization', value: 'Bearer s3cret-t0ken-value' },
      { name: 'Accept', value: '*/*' },
    ],
  });
  log.completed({
    tabId: 7,
    requestId: '2',
    timeStamp: T0 + 62,
    statusCode: 404,
    responseHeaders: [
      { name: 'Content-Length', value: '27' },
      { name: 'Set-Cookie', value: 'session=abc123; HttpOnly' },
    ],
  });
  log.started(
    start({ requestId: '3', url: 'http://127.0.0.1:1/unreachable', type: 'xmlhttprequest', timeStamp: T0 + 65 }),
  );
  log.failed({ tabId: 7, requestId: '3', timeStamp: T0 + 70, error: 'net::ERR_CONNECTION_REFUSED' });
}

describe('NetworkLog', () => {
  it('lists a page load, a 404 and a refused connection with status, type, time and size, once each', () => {
    const log = new NetworkLog(T0 - 1000);
    pageWithFailures(log);
    const out = formatNetwork(log.of(7), {});
    expect(out).toContain("from the extension's webRequest observer; no debugging port");
    expect(out).toContain('Recorded since its page started loading at 03:04:05 UTC.');
    expect(out).toContain('r1 GET 200 main_frame http://127.0.0.1:8080/ 40 ms');
    expect(out).toContain('r2 GET 404 xmlhttprequest http://127.0.0.1:8080/api/missing 12 ms 27 B');
    expect(out).toContain(
      'r3 GET failed (net::ERR_CONNECTION_REFUSED) xmlhttprequest http://127.0.0.1:1/unreachable 5 ms',
    );
    expect(out.match(/api\/missing/g)).toHaveLength(1);
    expect(out).toContain("Response bodies: only of the page's own fetch and XMLHttpRequest calls");
  });

  it('keeps only failures with failedOnly, and only matching URLs with filter', () => {
    const log = new NetworkLog(T0);
    pageWithFailures(log);
    const failed = formatNetwork(log.of(7), { failedOnly: true });
    expect(failed).toContain('2 requests (failed only)');
    expect(failed).not.toContain('r1 ');
    const filtered = formatNetwork(log.of(7), { filter: 'MISSING' });
    expect(filtered).toContain('1 request (URL contains "MISSING")');
    expect(filtered).toContain('r2 ');
    expect(formatNetwork(log.of(7), { filter: 'nothing-like-this' })).toContain('No requests');
  });

  it('masks Authorization and Set-Cookie as they are recorded, keeping the scheme', () => {
    const log = new NetworkLog(T0);
    pageWithFailures(log);
    const entry = log.of(7).entries.find((e) => e.id === 'r2');
    expect(entry).toBeDefined();
    const detail = entry ? formatRequest(entry, 'Response body: (section)') : '';
    expect(detail).toContain('Authorization: Bearer ***');
    expect(detail).toContain('Set-Cookie: ***');
    expect(detail).toContain('Accept: */*');
    expect(detail).not.toContain('s3cret');
    expect(detail).not.toContain('abc123');
    expect(JSON.stringify(log.of(7))).not.toContain('s3cret');
    expect(detail.split('\n').at(-1)).toBe('Response body: (section)');
  });

  it('masks secret query values in URLs and secret fields of a sent form', () => {
    const log = new NetworkLog(T0);
    log.started(start({ requestId: '1' }));
    log.started(
      start({
        requestId: '2',
        method: 'POST',
        type: 'xmlhttprequest',
        url: 'https://api.example/v1?api_key=AIzaSyA-very-secret&page=2',
        requestBody: { formData: { user: ['ada'], password: ['hunter22'] } },
      }),
    );
    const entry = log.of(7).entries[1];
    expect(entry?.url).toBe('https://api.example/v1?api_key=***&page=2');
    expect(entry?.body).toBe('user=ada&password=***');
  });

  it('keeps a raw body as text, cut at its bound', () => {
    const log = new NetworkLog(T0);
    const bytes = new TextEncoder().encode(`{"q":"${'x'.repeat(3000)}"}`);
    log.started(
      start({
        requestId: '1',
        method: 'POST',
        type: 'xmlhttprequest',
        requestBody: { raw: [{ bytes: bytes.buffer }] },
      }),
    );
    const body = log.of(7).entries[0]?.body ?? '';
    expect(body.startsWith('{"q":"xxx')).toBe(true);
    expect(body).toContain(`[${bytes.length} bytes]`);
    expect(body.length).toBeLessThan(2100);
  });

  it('starts the list afresh on a top-level navigation, not on a frame or a fetch', () => {
    const log = new NetworkLog(T0);
    pageWithFailures(log);
    log.started(start({ requestId: '9', type: 'sub_frame', frameId: 3, url: 'http://127.0.0.1:8080/frame' }));
    expect(log.of(7).entries).toHaveLength(4);
    log.started(start({ requestId: '10', url: 'http://127.0.0.1:8080/next', timeStamp: T0 + 5000 }));
    expect(log.of(7).entries.map((e) => e.url)).toEqual(['http://127.0.0.1:8080/next']);
    expect(log.of(7).since).toBe(T0 + 5000);
  });

  it('says the record is incomplete for a page that loaded before the worker started, and when it starts', () => {
    const log = new NetworkLog(T0);
    log.started(start({ requestId: '5', type: 'script', url: 'http://127.0.0.1:8080/app.js' }));
    const out = formatNetwork(log.of(7), {});
    expect(out).toContain("Recorded only since 03:04:05 UTC, when the extension's worker last started");
    expect(out).toContain('page_reload');
    expect(formatNetwork(log.of(99), {})).toContain('No requests');
  });

  it('keeps each tab to its bound, dropping and counting the oldest', () => {
    const log = new NetworkLog(T0, 3);
    log.started(start({ requestId: '0' }));
    for (let i = 1; i <= 5; i++)
      log.started(start({ requestId: String(i), type: 'image', url: `http://x.test/${i}.png` }));
    const tab = log.of(7);
    expect(tab.entries.map((e) => e.url)).toEqual([
      'http://x.test/3.png',
      'http://x.test/4.png',
      'http://x.test/5.png',
    ]);
    expect(formatNetwork(tab, {})).toContain('The 3 oldest requests no longer fit the log.');
    // An event of a dropped request changes nothing.
    log.completed({ tabId: 7, requestId: '1', timeStamp: T0, statusCode: 500 });
    expect(formatNetwork(log.of(7), { failedOnly: true })).toContain('No requests');
  });

  it('shows a redirect as its own hop, and the request it became', () => {
    const log = new NetworkLog(T0);
    log.started(start({ requestId: '1', url: 'http://a.test/old' }));
    log.redirected({ tabId: 7, requestId: '1', timeStamp: T0 + 5, statusCode: 301, redirectUrl: 'http://a.test/new' });
    log.started(start({ requestId: '1', url: 'http://a.test/new', type: 'main_frame', frameId: 0, timeStamp: T0 + 6 }));
    // A redirected top-level load is a new navigation of the tab: the new hop begins the list.
    expect(log.of(7).entries.map((e) => e.url)).toEqual(['http://a.test/new']);
    log.started(start({ requestId: '2', url: 'http://a.test/api', type: 'xmlhttprequest' }));
    log.redirected({ tabId: 7, requestId: '2', timeStamp: T0 + 9, statusCode: 302, redirectUrl: 'http://a.test/api2' });
    log.started(start({ requestId: '2', url: 'http://a.test/api2', type: 'xmlhttprequest' }));
    const out = formatNetwork(log.of(7), {});
    expect(out).toContain('GET 302 -> http://a.test/api2 xmlhttprequest http://a.test/api');
    expect(out).toContain('GET pending xmlhttprequest http://a.test/api2');
  });

  it('forgets a closed tab', () => {
    const log = new NetworkLog(T0);
    pageWithFailures(log);
    log.tabClosed(7);
    expect(log.of(7).entries).toEqual([]);
  });
});

describe('maskHeader', () => {
  it('masks secret-named headers whole and leaves others readable', () => {
    expect(maskHeader({ name: 'Cookie', value: 'a=b; c=d' })).toBe('Cookie: ***');
    expect(maskHeader({ name: 'X-Api-Key', value: 'abcdef123456' })).toBe('X-Api-Key: ***');
    expect(maskHeader({ name: 'Proxy-Authorization', value: 'Basic dXNlcjpwYXNz' })).toBe(
      'Proxy-Authorization: Basic ***',
    );
    expect(maskHeader({ name: 'Content-Type', value: 'application/json' })).toBe('Content-Type: application/json');
  });
});
