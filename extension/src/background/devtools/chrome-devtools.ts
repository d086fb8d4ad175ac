/**
 * The devtools tools' browser half. The network: chrome.webRequest observed without blocking (the same API in
 * Firefox), keyed by tab in the worker's memory. The console and the bodies of the page's fetch/XHR responses: the
 * page's main-world hook (content/dialog-shim.ts, content/response-bodies.ts), registered as a document-start content
 * script of every top frame so they are kept from the page's first script, in the page itself (so they survive the
 * worker's sleep); the worker attaches its channel and asks for them from the isolated world, where the page's script
 * cannot reach the parse.
 */
import pageHooksScript from '../../content/page-hooks.ts?iife';
import { installShim } from '../page-tools/chrome-pages';
import { DevtoolsTools } from './devtools-tools';
import { type HeaderIn, NetworkLog, type RequestStart } from './network-log';

/** The id the page hooks are registered under. */
const HOOKS_ID = 'tether-page-hooks';

/**
 * Runs in the top frame's isolated world: sends `query` to the hook on `channel` and returns the first reply whose
 * JSON text starts with `{"t":"<replyType>"` (the hook listens from document start, before any page listener).
 */
function askPageHook(channel: string, query: string, replyType: string): string | null {
  let reply: string | null = null;
  const prefix = `{"t":"${replyType}"`;
  const listener = (event: Event): void => {
    const detail = String((event as CustomEvent).detail);
    if (reply === null && detail.startsWith(prefix)) reply = detail;
  };
  document.addEventListener(channel, listener);
  document.dispatchEvent(new CustomEvent(channel, { detail: query }));
  document.removeEventListener(channel, listener);
  return reply;
}

/** The reply type of each query. */
const REPLY_TYPE = { read: 'log', bodies: 'bodyList', body: 'bodyText' } as const;

/**
 * Registers the document-start hook (again when a new build names another file). Where the browser refuses (a
 * browser without MAIN-world content scripts), the hook still comes with the first action or page_console, and
 * page_console says its record starts then.
 */
async function registerPageHooks(warn: (line: string) => void): Promise<void> {
  const script: chrome.scripting.RegisteredContentScript = {
    id: HOOKS_ID,
    js: [pageHooksScript],
    matches: ['<all_urls>'],
    runAt: 'document_start',
    world: 'MAIN',
    allFrames: false,
    persistAcrossSessions: true,
  };
  try {
    const [existing] = await chrome.scripting.getRegisteredContentScripts({ ids: [HOOKS_ID] });
    if (existing?.js?.[0] === pageHooksScript && existing.world === 'MAIN') return;
    if (existing) await chrome.scripting.unregisterContentScripts({ ids: [HOOKS_ID] });
    await chrome.scripting.registerContentScripts([script]);
  } catch (error) {
    warn(`the console hook could not be registered for document start; page_console records from first use (${error})`);
  }
}

function headers(list: chrome.webRequest.HttpHeader[] | undefined): HeaderIn[] | undefined {
  return list?.map((h) => ({ name: h.name, ...(h.value === undefined ? {} : { value: h.value }) }));
}

function body(details: chrome.webRequest.OnBeforeRequestDetails): RequestStart['requestBody'] {
  const b = details.requestBody;
  if (!b) return undefined;
  const formData = b.formData
    ? Object.fromEntries(
        Object.entries(b.formData).map(([k, vs]) => [k, vs.map((v) => (typeof v === 'string' ? v : '[binary]'))]),
      )
    : undefined;
  return {
    ...(formData ? { formData } : {}),
    ...(b.raw ? { raw: b.raw.map((r) => (r.bytes ? { bytes: r.bytes } : {})) } : {}),
    ...(b.error ? { error: b.error } : {}),
  };
}

/** Starts observing (call once, at the worker's top level, so events wake it); returns the two tools. */
export function chromeDevtools(warn: (line: string) => void): DevtoolsTools {
  const network = new NetworkLog(Date.now());
  const web = chrome.webRequest;
  if (web) {
    const filter: chrome.webRequest.RequestFilter = { urls: ['<all_urls>'] };
    web.onBeforeRequest.addListener(
      (d) => {
        const requestBody = body(d);
        network.started({
          tabId: d.tabId,
          requestId: d.requestId,
          timeStamp: d.timeStamp,
          method: d.method,
          url: d.url,
          type: d.type,
          frameId: d.frameId,
          ...(requestBody ? { requestBody } : {}),
        });
        return undefined;
      },
      filter,
      ['requestBody'],
    );
    web.onSendHeaders.addListener(
      (d) => network.sent({ ...d, requestHeaders: headers(d.requestHeaders) ?? [] }),
      filter,
      ['requestHeaders'],
    );
    web.onHeadersReceived.addListener(
      (d) => {
        network.responded({ ...d, responseHeaders: headers(d.responseHeaders) ?? [] });
        return undefined;
      },
      filter,
      ['responseHeaders'],
    );
    web.onBeforeRedirect.addListener(
      (d) => network.redirected({ ...d, responseHeaders: headers(d.responseHeaders) ?? [] }),
      filter,
      ['responseHeaders'],
    );
    web.onCompleted.addListener(
      (d) => network.completed({ ...d, responseHeaders: headers(d.responseHeaders) ?? [] }),
      filter,
      ['responseHeaders'],
    );
    web.onErrorOccurred.addListener((d) => network.failed(d), filter);
  } else warn('chrome.webRequest is not available: page_network will list nothing');
  chrome.tabs.onRemoved.addListener((tabId) => network.tabClosed(tabId));
  void registerPageHooks(warn);

  return new DevtoolsTools({
    network,
    askHook: async (tabId, query) => {
      const channel = await installShim(tabId, 0);
      const [first] = await chrome.scripting.executeScript({
        target: { tabId, frameIds: [0] },
        func: askPageHook,
        args: [channel, JSON.stringify(query), REPLY_TYPE[query.t]],
      });
      if (typeof first?.result !== 'string') return undefined;
      try {
        return JSON.parse(first.result) as unknown;
      } catch {
        return undefined;
      }
    },
  });
}
