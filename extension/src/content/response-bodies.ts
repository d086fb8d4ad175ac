/**
 * page_network's response bodies, kept in the page's main world (page-hooks.ts installs this at document start, next
 * to the console hook): the page's fetch and XMLHttpRequest are wrapped so each response's text body is kept as the
 * page's scripts receive it, for the worker to match to a webRequest entry (method, URL, time) when page_network is
 * asked for a body. Browsers give an extension no response bodies without a debugging port; this is what the page
 * itself can read, and nothing else.
 *
 * Bounded: the last RECORDS_MAX responses, each body cut at BODY_MAX bytes (the cut said). Binary, opaque (no-cors)
 * and event-stream bodies are noted, never read. The page receives exactly what it would without the hook: a fetch
 * body is read from `response.clone()` (our branch is cancelled at the cut, so a large or endless stream is not held),
 * in a reaction registered before the page's own so the clone comes first; an XHR's text is read from its getters after
 * `loadend`. fetch and the XHR methods are wrapped by Proxies: same `this`, arguments, result, name, length and
 * `[native code]` source text.
 *
 * The worker asks on the channel it attaches (the `tether-page-hooks` boot event, as for the console): `{t:'bodies'}`
 * is answered by `{t:'bodyList'}`, the records without their text, `{t:'body', id}` by `{t:'bodyText'}`, one record's
 * text (replies have types of their own: they come back on the same channel, to these listeners too). The page can forge either answer: the
 * worker parses them as untrusted data and shows them as page output.
 */

/** Responses kept (the oldest are dropped and counted). */
export const RECORDS_MAX = 50;
/** Bytes (for XHR text: characters) of one body kept. */
export const BODY_MAX = 64 * 1024;
/** Characters of a URL kept. */
const URL_MAX = 2_000;

/** How a body was kept, or why it was not. */
export type BodyKind = 'text' | 'binary' | 'opaque' | 'stream' | 'none' | 'document';

/** One response as the hook kept it (without its text, which `{t:'body'}` answers). */
export interface BodyRecord {
  id: number;
  via: 'fetch' | 'xhr';
  method: string;
  /** The URL the page asked for (absolute), '' when it passed something else. */
  url: string;
  /** The response's final URL (after redirects), '' before it arrived. */
  finalUrl: string;
  /** Epoch ms when the page called fetch or send. */
  time: number;
  state: 'pending' | 'reading' | 'done' | 'failed';
  status: number;
  contentType: string;
  kind: BodyKind;
  /** Bytes (XHR: characters) of the body the page received, when all of it was seen. */
  length?: number;
  /** The kept text stops at BODY_MAX. */
  cut: boolean;
  /** Why the body ended early (a network error, an abort). */
  error?: string;
}

/** Where the recorder hooks: the page's window (its fetch and XMLHttpRequest) and its document (the channel). */
export interface RecorderScope {
  fetch?: typeof fetch;
  XMLHttpRequest?: { prototype: XMLHttpRequest };
}

const BINARY =
  /^(image|audio|video|font)\/|^application\/(octet-stream|pdf|zip|gzip|wasm|x-protobuf|protobuf)|^multipart\//;

/** What a content type says of a body: 'binary', 'stream' (server-sent events) or 'text' (unknown types are sniffed). */
function kindOfType(contentType: string): 'binary' | 'stream' | 'text' {
  const type = contentType.toLowerCase();
  if (type.startsWith('text/event-stream')) return 'stream';
  return BINARY.test(type) ? 'binary' : 'text';
}

/** Installs the recorder on `scope` (the page's window) with its channel on `doc`; call once per document. */
export function installResponseRecorder(scope: RecorderScope, doc: EventTarget & { baseURI: string }): void {
  const BOOT = 'tether-page-hooks';
  const records: (BodyRecord & { text: string })[] = [];
  let dropped = 0;
  let nextId = 1;
  const startedAt = Date.now();
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const listen = EventTarget.prototype.addEventListener;
  const dispatch = EventTarget.prototype.dispatchEvent;
  const apply = Reflect.apply;
  const Custom = CustomEvent;
  const Decoder = TextDecoder;
  const URLType = URL;
  const promiseThen = Promise.prototype.then;
  const ResponseType = typeof Response === 'function' ? Response : undefined;
  const cloneOf = ResponseType?.prototype.clone;
  const headerOf = typeof Headers === 'function' ? Headers.prototype.get : undefined;
  const header = (headers: Headers, name: string): string =>
    (headerOf ? apply(headerOf, headers, [name]) : headers.get(name)) ?? '';

  const absolute = (input: unknown): string => {
    try {
      if (typeof input === 'string') return new URLType(input, doc.baseURI).href.slice(0, URL_MAX);
      if (input instanceof URLType) return input.href.slice(0, URL_MAX);
      if (typeof Request === 'function' && input instanceof Request) return input.url.slice(0, URL_MAX);
    } catch {
      // An invalid URL: fetch rejects it; the record keeps ''.
    }
    return '';
  };
  const start = (via: BodyRecord['via'], method: string, url: string): BodyRecord & { text: string } => {
    const record = {
      id: nextId++,
      via,
      method: method.toUpperCase().slice(0, 40),
      url,
      finalUrl: '',
      time: Date.now(),
      state: 'pending' as BodyRecord['state'],
      status: 0,
      contentType: '',
      kind: 'none' as BodyKind,
      cut: false,
      text: '',
    };
    records.push(record);
    if (records.length > RECORDS_MAX) {
      records.shift();
      dropped += 1;
    }
    return record;
  };
  const failed = (record: BodyRecord, error: unknown): void => {
    record.state = 'failed';
    record.error = String(error).slice(0, 300);
  };

  // The channel: the worker attaches its name with the boot event (the console hook answers that event; this only
  // listens) and asks on it.
  const attached: string[] = [];
  const onChannel = (event: Event): void => {
    let message: { t?: unknown; id?: unknown };
    try {
      message = parse(String((event as CustomEvent).detail));
    } catch {
      return;
    }
    let reply: object | undefined;
    if (message.t === 'bodies')
      reply = { t: 'bodyList', records: records.map(({ text: _, ...meta }) => meta), dropped, startedAt };
    else if (message.t === 'body') {
      const found = records.find((r) => r.id === message.id);
      reply = { t: 'bodyText', id: message.id, found: found !== undefined, text: found?.text ?? '' };
    }
    if (reply) apply(dispatch, doc, [new Custom(event.type, { detail: stringify(reply) })]);
  };
  apply(listen, doc, [
    BOOT,
    (event: Event) => {
      try {
        const message = parse(String((event as CustomEvent).detail)) as { t?: unknown; channel?: unknown };
        const c = message.channel;
        if (message.t !== 'attach' || typeof c !== 'string' || c === BOOT || attached.includes(c)) return;
        if (attached.length >= 8) attached.shift();
        attached.push(c);
        apply(listen, doc, [c, onChannel]);
      } catch {
        // Not ours.
      }
    },
  ]);

  /** Reads `response`'s clone up to BODY_MAX bytes into `record`, then lets the clone go. */
  const readClone = async (record: BodyRecord & { text: string }, clone: Response): Promise<void> => {
    const reader = clone.body?.getReader();
    if (!reader) {
      record.state = 'done';
      return;
    }
    record.kind = 'text';
    record.state = 'reading';
    const decoder = new Decoder('utf-8');
    const sniff = record.contentType === '';
    let seen = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const room = BODY_MAX - seen;
      const part = value.byteLength > room ? value.subarray(0, room) : value;
      if (sniff && part.includes(0)) {
        record.kind = 'binary';
        record.text = '';
        record.cut = false;
        await reader.cancel();
        break;
      }
      seen += part.byteLength;
      record.text += decoder.decode(part, { stream: true });
      if (value.byteLength > room) {
        record.cut = true;
        await reader.cancel();
        break;
      }
    }
    if (record.kind === 'text') {
      record.text += decoder.decode();
      if (!record.cut) record.length = seen;
    }
    record.state = 'done';
  };

  const onResponse = (record: BodyRecord & { text: string }, response: Response): void => {
    record.status = response.status;
    record.finalUrl = response.url.slice(0, URL_MAX);
    record.contentType = header(response.headers, 'content-type').slice(0, 200);
    if (response.type === 'opaque' || response.type === 'opaqueredirect') {
      record.kind = 'opaque';
      record.state = 'done';
      return;
    }
    if (response.body === null) {
      record.state = 'done';
      return;
    }
    const kind = kindOfType(record.contentType);
    if (kind !== 'text') {
      record.kind = kind;
      const length = Number(header(response.headers, 'content-length') || Number.NaN);
      if (Number.isInteger(length)) record.length = length;
      record.state = 'done';
      return;
    }
    // Before any reaction of the page's: its body is still unread.
    const clone: Response = cloneOf ? apply(cloneOf, response, []) : response.clone();
    readClone(record, clone).catch((error: unknown) => failed(record, error));
  };

  const originalFetch = scope.fetch;
  if (typeof originalFetch === 'function') {
    scope.fetch = new Proxy(originalFetch, {
      apply(target, thisArg, args: unknown[]) {
        const result: unknown = apply(target, thisArg, args);
        try {
          const [input, init] = args as [unknown, { method?: unknown } | undefined];
          // init's method wins over a Request's, as in fetch.
          const method =
            typeof init?.method === 'string'
              ? init.method
              : typeof Request === 'function' && input instanceof Request
                ? input.method
                : 'GET';
          const record = start('fetch', method, absolute(input));
          apply(promiseThen, result, [
            (response: unknown) => {
              try {
                if (ResponseType && response instanceof ResponseType) onResponse(record, response);
              } catch (error) {
                failed(record, error);
              }
            },
            (error: unknown) => failed(record, error),
          ]);
        } catch {
          // Recording is best effort; the page's call already went through unchanged.
        }
        return result;
      },
    });
  }

  const xhr = scope.XMLHttpRequest?.prototype;
  if (!xhr) return;
  const opened = new WeakMap<object, { method: string; url: string }>();
  const getter = (name: 'responseText' | 'response' | 'responseType' | 'status' | 'responseURL') =>
    Object.getOwnPropertyDescriptor(xhr, name)?.get;
  const [responseText, responseOf, responseType, status, responseURL] = (
    ['responseText', 'response', 'responseType', 'status', 'responseURL'] as const
  ).map(getter);
  const read = (fn: (() => unknown) | undefined, self: object): unknown => (fn ? apply(fn, self, []) : undefined);
  const finish = (record: BodyRecord & { text: string }, self: XMLHttpRequest): void => {
    record.status = Number(read(status, self)) || 0;
    record.finalUrl = String(read(responseURL, self) ?? '').slice(0, URL_MAX);
    record.contentType = (apply(xhr.getResponseHeader, self, ['content-type']) ?? '').slice(0, 200);
    const type = String(read(responseType, self) ?? '');
    let text: string;
    if (type === '' || type === 'text') text = String(read(responseText, self) ?? '');
    else if (type === 'json') text = stringify(read(responseOf, self)) ?? '';
    else {
      record.kind = type === 'document' ? 'document' : 'binary';
      record.state = 'done';
      return;
    }
    record.kind = record.status === 0 && text === '' ? 'none' : 'text';
    record.length = text.length;
    record.cut = text.length > BODY_MAX;
    record.text = text.slice(0, BODY_MAX);
    record.state = record.status === 0 ? 'failed' : 'done';
  };
  const methods = xhr as unknown as Record<'open' | 'send', (...args: unknown[]) => unknown>;
  const { open, send } = methods;
  methods.open = new Proxy(open, {
    apply(target, thisArg: object, args: unknown[]) {
      const result = apply(target, thisArg, args);
      try {
        opened.set(thisArg, { method: String(args[0]), url: absolute(args[1]) });
      } catch {
        // Best effort.
      }
      return result;
    },
  });
  methods.send = new Proxy(send, {
    apply(target, thisArg: XMLHttpRequest, args: unknown[]) {
      let record: (BodyRecord & { text: string }) | undefined;
      try {
        const how = opened.get(thisArg);
        if (how) {
          const kept = start('xhr', how.method, how.url);
          record = kept;
          // Before send: a synchronous request ends inside it.
          apply(listen, thisArg, [
            'loadend',
            () => {
              try {
                finish(kept, thisArg);
              } catch (error) {
                failed(kept, error);
              }
            },
            { once: true },
          ]);
        }
      } catch {
        // Best effort.
      }
      try {
        return apply(target, thisArg, args);
      } catch (error) {
        if (record) failed(record, error);
        throw error;
      }
    },
  });
}
