/**
 * The fixture site of the browser tools' tests and benchmark: real HTTP on 127.0.0.1 with two listeners on two ports,
 * so `origin` and `otherOrigin` are different origins serving the same pages (fixture-pages.ts). Every form POST is
 * recorded, so a test checks what the server received, not what the page shows.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEVTOOLS_DATA } from './devtools-pages';
import { indexPage, PAGES } from './fixture-pages';

/** A form POST the site received. */
export interface Submission {
  /** The origin it was posted to. */
  readonly origin: string;
  /** `/submit`, `/login`, `/comment`, `/delete-account`, `/password`, ... */
  readonly path: string;
  /** The form's fields in order (a name may repeat). */
  readonly entries: readonly (readonly [string, string])[];
  /** The same as an object; for a repeated name, the last value. */
  readonly fields: Readonly<Record<string, string>>;
}

/** A request the site served. */
export interface FixtureRequest {
  readonly method: string;
  readonly origin: string;
  /** Path with its query string. */
  readonly path: string;
}

/** A running fixture site. */
export interface FixtureSite {
  /** `http://127.0.0.1:A` */
  readonly origin: string;
  /** `http://127.0.0.1:B`: another origin with the same pages (cross-origin frames and links point there). */
  readonly otherOrigin: string;
  /** Absolute URL of a page of `origin` (`/form`, `/table`, ...). */
  url(path: string): string;
  /** Absolute URL of a page of `otherOrigin`. */
  otherUrl(path: string): string;
  /** Every form POST so far, in order. */
  submissions(): readonly Submission[];
  /** Resolves with the first POST to `path` (already received or still to come); rejects after `timeoutMs`. */
  waitForSubmission(path: string, timeoutMs?: number): Promise<Submission>;
  /** Every request so far, in order. */
  requests(): readonly FixtureRequest[];
  close(): Promise<void>;
}

/** Largest POST body recorded; more is refused with 413 (a test never sends that much). */
const MAX_BODY_BYTES = 1024 * 1024;

/** Starts the site on two free ports of 127.0.0.1. */
export async function startFixtureSite(): Promise<FixtureSite> {
  const submissions: Submission[] = [];
  const requests: FixtureRequest[] = [];
  const waiters = new Set<(s: Submission) => boolean>();
  const origins: string[] = [];
  const otherOf = (origin: string): string => (origin === origins[0] ? origins[1]! : origins[0]!);

  const handle = async (origin: string, req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', origin);
    const method = req.method ?? 'GET';
    requests.push({ method, origin, path: `${url.pathname}${url.search}` });
    if (method === 'POST') {
      const body = await readBody(req);
      if (body === undefined) {
        res.writeHead(413, { 'content-type': 'text/plain' }).end('body too large');
        return;
      }
      const entries = [...new URLSearchParams(body)].map(([k, v]) => [k, v] as const);
      const submission: Submission = { origin, path: url.pathname, entries, fields: Object.fromEntries(entries) };
      submissions.push(submission);
      for (const waiter of [...waiters]) if (waiter(submission)) waiters.delete(waiter);
      // Post/redirect/get: a reload or Back on the answer does not post again.
      res.writeHead(303, { location: `/done?path=${encodeURIComponent(url.pathname)}` }).end();
      return;
    }
    if (url.pathname === '/favicon.ico') {
      // No 404 in the console: actions report the page's console errors.
      res.writeHead(204).end();
      return;
    }
    if (url.pathname === '/files/report.csv') {
      res
        .writeHead(200, { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="report.csv"' })
        .end('order,total\n1001,10.00\n');
      return;
    }
    const data = DEVTOOLS_DATA[url.pathname];
    if (data) {
      res.writeHead(200, { 'content-type': data.type, 'cache-control': 'no-store' }).end(data.body);
      return;
    }
    const found = url.pathname === '/' ? indexPage() : PAGES[url.pathname];
    if (found === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`no fixture page ${url.pathname}`);
      return;
    }
    const html = typeof found === 'string' ? found : found({ origin, other: otherOf(origin), query: url.searchParams });
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);
  };

  const servers: Server[] = [];
  for (let i = 0; i < 2; i++) {
    const server = createServer((req, res) => {
      handle(origins[i]!, req, res).catch((error: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origins.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    servers.push(server);
  }
  const [origin, otherOrigin] = origins as [string, string];

  return {
    origin,
    otherOrigin,
    url: (path) => `${origin}${path}`,
    otherUrl: (path) => `${otherOrigin}${path}`,
    submissions: () => [...submissions],
    requests: () => [...requests],
    waitForSubmission(path, timeoutMs = 10_000) {
      const found = submissions.find((s) => s.path === path);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = (s: Submission): boolean => {
          if (s.path !== path) return false;
          clearTimeout(timer);
          resolve(s);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`the fixture site received no POST to ${path} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    close: async () => {
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.closeAllConnections();
              s.close(() => resolve());
            }),
        ),
      );
    },
  };
}

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
