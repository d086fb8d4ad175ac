/** A tiny local web server for end-to-end tests and `npm start`: a few article pages on 127.0.0.1. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running demo server. */
export interface DemoServer {
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  /** Absolute URL of a page (`/article`, `/other`). */
  url(path: string): string;
  /** Paths requested so far, in order. */
  readonly requests: readonly string[];
  close(): Promise<void>;
}

function article(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>
<body><header><nav><a href="/">Home</a> · <a href="/other">Other</a></nav></header>
<main><article><h1>${title}</h1>${body}</article></main><footer>Demo page served by Tether's tests.</footer></body></html>`;
}

const PAGES: Record<string, string> = {
  '/': article(
    'Tether demo: tides of the North Sea',
    [
      '<p>The North Sea has a tidal range of up to seven metres along the English coast and less than one metre near Norway.</p>',
      '<p>Twice a day the tide runs around three amphidromic points, where the range is nearly zero.</p>',
      '<p>Storm surges on top of spring tides caused the flood of 1953, which led to the Delta Works and the Thames Barrier.</p>',
      '<p>Ask the side panel about this page: it can read it after you allow it.</p>',
    ].join(''),
  ),
  '/other': article(
    'Another page: a short history of lighthouses',
    '<p>The Pharos of Alexandria stood for more than a millennium. Fresnel lenses, from 1823, made lights visible far out to sea.</p>',
  ),
};

/** Starts the demo server on a free port of 127.0.0.1 (a different host name, such as localhost, is another origin). */
export async function startDemoServer(): Promise<DemoServer> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    requests.push(path);
    const page = PAGES[path];
    if (!page) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (path) => `${origin}${path}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
