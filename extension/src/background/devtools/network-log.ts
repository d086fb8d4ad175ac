/**
 * The requests of each tab as the worker's webRequest observer sees them (chrome-devtools.ts feeds it; non-blocking,
 * so observing never slows a request down): method, URL, type, status, size and timing, bounded per tab and started
 * afresh by the tab's top-level navigation. Secrets are masked as they are recorded (request and response headers by
 * name, URLs and sent bodies by the project's redactor), so nothing unmasked is kept in the worker's memory.
 *
 * The log lives in the worker's memory: when the browser stops the sleeping service worker it is lost, and a tab
 * whose page loaded before the worker last started is marked incomplete, with the time its record starts.
 */
import { isSecretName, MASK, redactText } from '@tether/protocol';

/** Requests kept per tab (the oldest are dropped and counted). */
export const NETWORK_PER_TAB = 300;
/** Bytes of a sent body kept, as text. */
const BODY_MAX = 2_000;

/** A header as webRequest gives it. */
export interface HeaderIn {
  name: string;
  value?: string;
}

/** What every webRequest event carries. */
export interface RequestEvent {
  tabId: number;
  requestId: string;
  timeStamp: number;
}

/** onBeforeRequest's facts. */
export interface RequestStart extends RequestEvent {
  method: string;
  url: string;
  type: string;
  frameId: number;
  /** The body the page sends, as webRequest gives it (form fields or raw bytes). */
  requestBody?: { formData?: Record<string, string[]>; raw?: { bytes?: ArrayBuffer }[]; error?: string };
}

/** One request of a tab. */
export interface NetworkEntry {
  /** `r<n>`, unique within the tab's log: what bodyOf names. */
  readonly id: string;
  readonly method: string;
  /** Masked (user-info, secret query values). */
  readonly url: string;
  readonly type: string;
  /** The frame that made it, when not the top frame. */
  readonly frameId?: number;
  readonly start: number;
  end?: number;
  status?: number;
  statusLine?: string;
  /** Network error (`net::ERR_CONNECTION_REFUSED`), when it failed below HTTP. */
  error?: string;
  fromCache?: boolean;
  /** Content-Length of the response, when the server sent one. */
  size?: number;
  redirectTo?: string;
  requestHeaders?: string[];
  responseHeaders?: string[];
  body?: string;
}

/** One tab's log. */
export interface TabNetwork {
  entries: NetworkEntry[];
  dropped: number;
  /** When this record starts (the top-level navigation, or the worker's start). */
  since: number;
  /** False when the page loaded before the worker started observing: earlier requests are not known. */
  complete: boolean;
  url?: string;
}

/** A header line fit to show: secret-named headers (Authorization, Cookie, Set-Cookie, X-Api-Key) masked whole. */
export function maskHeader(h: HeaderIn): string {
  const value = h.value ?? '';
  if (!isSecretName(h.name)) return redactText(`${h.name}: ${value}`);
  // The scheme (Bearer, Basic) says what kind of credential it was without giving any of it away.
  const scheme = /^(Bearer|Basic|Token|Bot|Digest)\s/i.exec(value)?.[1];
  return `${h.name}: ${scheme ? `${scheme} ` : ''}${MASK}`;
}

function bodyText(body: RequestStart['requestBody']): string | undefined {
  if (!body) return undefined;
  if (body.formData) {
    const pairs = Object.entries(body.formData).flatMap(([k, vs]) =>
      vs.map((v) => `${encodeURIComponent(k)}=${isSecretName(k) ? MASK : encodeURIComponent(v)}`),
    );
    return redactText(pairs.join('&')).slice(0, BODY_MAX);
  }
  const bytes = body.raw?.flatMap((part) => (part.bytes ? [new Uint8Array(part.bytes)] : []));
  if (!bytes || bytes.length === 0) return body.error ? `[not available: ${body.error}]` : undefined;
  const total = bytes.reduce((n, b) => n + b.length, 0);
  const joined = new Uint8Array(Math.min(total, BODY_MAX));
  let at = 0;
  for (const b of bytes) {
    if (at >= joined.length) break;
    const part = b.subarray(0, joined.length - at);
    joined.set(part, at);
    at += part.length;
  }
  const text = redactText(new TextDecoder('utf-8', { fatal: false }).decode(joined));
  return total > BODY_MAX ? `${text}… [${total} bytes]` : text;
}

/** Every tab's requests, fed by webRequest events. */
export class NetworkLog {
  private readonly tabs = new Map<number, TabNetwork>();
  /** requestId -> the entry its events update now (a redirect starts a new entry under the same requestId). */
  private readonly live = new Map<string, { tabId: number; entry: NetworkEntry }>();
  private nextId = 1;

  /** `startedAt`: when the observer started (the worker's start), for tabs it did not see load. */
  constructor(
    private readonly startedAt: number,
    private readonly perTab = NETWORK_PER_TAB,
  ) {}

  private tab(tabId: number): TabNetwork {
    let t = this.tabs.get(tabId);
    if (!t) {
      t = { entries: [], dropped: 0, since: this.startedAt, complete: false };
      this.tabs.set(tabId, t);
    }
    return t;
  }

  /** A request starts; a top-level document request begins the tab's log anew. */
  started(e: RequestStart): void {
    if (e.tabId < 0) return;
    if (e.type === 'main_frame' && e.frameId === 0) {
      for (const [id, l] of this.live) if (l.tabId === e.tabId) this.live.delete(id);
      this.tabs.set(e.tabId, { entries: [], dropped: 0, since: e.timeStamp, complete: true, url: redactText(e.url) });
    }
    const t = this.tab(e.tabId);
    const body = bodyText(e.requestBody);
    const entry: NetworkEntry = {
      id: `r${this.nextId++}`,
      method: e.method,
      url: redactText(e.url),
      type: e.type,
      ...(e.frameId === 0 ? {} : { frameId: e.frameId }),
      start: e.timeStamp,
      ...(body === undefined ? {} : { body }),
    };
    t.entries.push(entry);
    if (t.entries.length > this.perTab) {
      const gone = t.entries.shift();
      t.dropped += 1;
      if (gone) for (const [id, l] of this.live) if (l.entry === gone) this.live.delete(id);
    }
    this.live.set(e.requestId, { tabId: e.tabId, entry });
  }

  /** The headers it was sent with (masked now). */
  sent(e: RequestEvent & { requestHeaders?: HeaderIn[] }): void {
    const entry = this.live.get(e.requestId)?.entry;
    if (entry && e.requestHeaders) entry.requestHeaders = e.requestHeaders.map(maskHeader);
  }

  /** Its response headers arrived. */
  responded(e: RequestEvent & { statusCode: number; statusLine?: string; responseHeaders?: HeaderIn[] }): void {
    const entry = this.live.get(e.requestId)?.entry;
    if (!entry) return;
    entry.status = e.statusCode;
    if (e.statusLine) entry.statusLine = e.statusLine;
    if (e.responseHeaders) {
      entry.responseHeaders = e.responseHeaders.map(maskHeader);
      const length = e.responseHeaders.find((h) => h.name.toLowerCase() === 'content-length')?.value;
      if (length && /^\d+$/.test(length)) entry.size = Number(length);
    }
  }

  /** It was redirected: this hop ends; the next one comes as a new `started` with the same requestId. */
  redirected(e: RequestEvent & { statusCode: number; redirectUrl: string; responseHeaders?: HeaderIn[] }): void {
    this.responded(e);
    const l = this.live.get(e.requestId);
    if (!l) return;
    l.entry.end = e.timeStamp;
    l.entry.redirectTo = redactText(e.redirectUrl);
    this.live.delete(e.requestId);
  }

  /** It finished. */
  completed(e: RequestEvent & { statusCode: number; fromCache?: boolean; responseHeaders?: HeaderIn[] }): void {
    this.responded(e);
    const l = this.live.get(e.requestId);
    if (!l) return;
    l.entry.end = e.timeStamp;
    if (e.fromCache) l.entry.fromCache = true;
    this.live.delete(e.requestId);
  }

  /** It failed below HTTP (refused, DNS, aborted, blocked). */
  failed(e: RequestEvent & { error: string }): void {
    const l = this.live.get(e.requestId);
    if (!l) return;
    l.entry.end = e.timeStamp;
    l.entry.error = e.error;
    this.live.delete(e.requestId);
  }

  /** Forgets a closed tab. */
  tabClosed(tabId: number): void {
    this.tabs.delete(tabId);
    for (const [id, l] of this.live) if (l.tabId === tabId) this.live.delete(id);
  }

  /** The tab's log (an empty, incomplete one when nothing was seen). */
  of(tabId: number): TabNetwork {
    return this.tabs.get(tabId) ?? { entries: [], dropped: 0, since: this.startedAt, complete: false };
  }
}
