/**
 * page_network's result text: one bounded line per request (newest last), or one request's headers, sent body and
 * response body (network-bodies.ts), always saying where the data came from and what it cannot show.
 */
import type { NetworkEntry, TabNetwork } from './network-log';

/** Most requests one result lists (the newest). */
export const NETWORK_RESULT_MAX = 100;
const URL_MAX = 300;

/** Where the requests come from, said in every result. */
export const NETWORK_SOURCE = "from the extension's webRequest observer; no debugging port";

/** Which response bodies there are, in the list's header. */
export const RESPONSE_BODIES =
  "Response bodies: only of the page's own fetch and XMLHttpRequest calls, kept by the page's main-world hook (the browser gives extensions no others without a debugging port).";

/** Failed: a network error, or HTTP 4xx/5xx. */
export function isFailed(e: NetworkEntry): boolean {
  return e.error !== undefined || (e.status !== undefined && e.status >= 400);
}

function clock(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(11, 19);
}

function sizeOf(bytes: number | undefined): string {
  if (bytes === undefined) return '';
  if (bytes < 1024) return ` ${bytes} B`;
  return ` ${(bytes / 1024).toFixed(1)} KB`;
}

function outcome(e: NetworkEntry): string {
  if (e.error !== undefined) return `failed (${e.error})`;
  if (e.status === undefined) return 'pending';
  return `${e.status}${e.redirectTo ? ` -> ${e.redirectTo.slice(0, URL_MAX)}` : ''}`;
}

/** `r12 GET 404 fetch http://... 5 ms 120 B`. */
function line(e: NetworkEntry): string {
  const url = e.url.length > URL_MAX ? `${e.url.slice(0, URL_MAX)}…` : e.url;
  const time = e.end === undefined ? '' : ` ${Math.round(e.end - e.start)} ms`;
  return `${e.id} ${e.method} ${outcome(e)} ${e.type} ${url}${time}${sizeOf(e.size)}${e.fromCache ? ' (cache)' : ''}`;
}

function header(log: TabNetwork): string[] {
  return [
    `Requests of this tab (${NETWORK_SOURCE}).`,
    log.complete
      ? `Recorded since its page started loading at ${clock(log.since)} UTC.`
      : `Recorded only since ${clock(log.since)} UTC, when the extension's worker last started (the browser stops it when idle, and its memory with it): earlier requests of this page are not known; page_reload records from the start.`,
  ];
}

/** The list of `log`'s requests whose URL contains `filter`, only failures when `failedOnly`. */
export function formatNetwork(log: TabNetwork, args: { filter?: string; failedOnly?: boolean }): string {
  const needle = args.filter?.toLowerCase();
  const matching = log.entries.filter(
    (e) => (!needle || e.url.toLowerCase().includes(needle)) && (!args.failedOnly || isFailed(e)),
  );
  const shown = matching.slice(-NETWORK_RESULT_MAX);
  const head = header(log);
  if (log.dropped > 0) head.push(`The ${log.dropped} oldest requests no longer fit the log.`);
  const what = [needle ? `URL contains ${JSON.stringify(args.filter)}` : '', args.failedOnly ? 'failed only' : '']
    .filter(Boolean)
    .join(', ');
  if (shown.length === 0) {
    head.push(`No requests${what ? ` (${what})` : ''}.`);
    return head.join('\n');
  }
  const more = matching.length > shown.length ? ` (the newest ${shown.length} of ${matching.length})` : '';
  head.push(
    `${shown.length} request${shown.length === 1 ? '' : 's'}${what ? ` (${what})` : ''}${more}, oldest first: id method status type URL time size. bodyOf with an id shows its headers, the body it sent and its response body. ${RESPONSE_BODIES}`,
  );
  return `${head.join('\n')}\n${shown.map(line).join('\n')}`;
}

/** One request in full: its line, headers (secrets masked), the body the page sent, and `responseBody` (its section). */
export function formatRequest(e: NetworkEntry, responseBody: string): string {
  const out = [`Request ${e.id} of this tab (${NETWORK_SOURCE}; secrets in headers masked).`, line(e)];
  if (e.statusLine) out.push(`Status line: ${e.statusLine}`);
  out.push('Request headers:', ...(e.requestHeaders?.map((h) => `  ${h}`) ?? ['  (not seen)']));
  out.push('Response headers:', ...(e.responseHeaders?.map((h) => `  ${h}`) ?? ['  (none received)']));
  out.push(e.body === undefined ? 'Sent body: none.' : `Sent body:\n${e.body}`);
  out.push(responseBody);
  return out.join('\n');
}
