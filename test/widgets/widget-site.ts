/**
 * The widget suite's site on 127.0.0.1: one page per widget (test/widgets/pages/*.html), the libraries' own
 * distribution files straight from node_modules (only the packages listed here), and the few ES-module widgets
 * (React's Radix menu, TipTap) bundled from test/widgets/pages/*.entry.ts with esbuild when the site starts.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { build } from 'esbuild';
import { REPO_ROOT } from '../support/browser';

const PAGES_DIR = join(REPO_ROOT, 'test/widgets/pages');
const MODULES_DIR = join(REPO_ROOT, 'node_modules');
/** The files the upload tasks give (by name) to a file input or a drop zone. */
export const WIDGET_FILES_DIR = join(REPO_ROOT, 'test/widgets/files');

/** The packages whose files the pages load from `/lib/<package>/<file>`; nothing else under node_modules is served. */
const SERVED_PACKAGES = [
  'jquery',
  'jquery-ui',
  'flatpickr',
  'tabulator-tables',
  'sortablejs',
  'codemirror',
  'dropzone',
  'purecss',
];

/** The pages built from ES modules: `/bundle/<name>.js` from `pages/<name>.entry.ts`. */
const BUNDLED = ['radix-menu', 'tiptap'];

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/** A running widget site. */
export interface WidgetSite {
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  /** The absolute URL of a widget page by its name (`datepicker` for pages/datepicker.html). */
  page(name: string): string;
  close(): Promise<void>;
}

async function bundle(name: string): Promise<string> {
  const result = await build({
    entryPoints: [join(PAGES_DIR, `${name}.entry.ts`)],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    logLevel: 'error',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  return result.outputFiles[0]!.text;
}

/** The file a `/lib/<package>/<path>` request names, or undefined when it is outside the served packages. */
function libraryFile(path: string): string | undefined {
  const [pkg, ...rest] = path.slice('/lib/'.length).split('/');
  if (!pkg || !SERVED_PACKAGES.includes(pkg) || rest.length === 0) return undefined;
  const file = normalize(join(MODULES_DIR, pkg, ...rest));
  return file.startsWith(join(MODULES_DIR, pkg) + sep) ? file : undefined;
}

/** Bundles the ES-module widgets and serves the site on a free port of 127.0.0.1. */
export async function startWidgetSite(): Promise<WidgetSite> {
  const bundles = new Map<string, string>();
  await Promise.all(BUNDLED.map(async (name) => bundles.set(name, await bundle(name))));
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0] ?? '/');
    const send = (status: number, type: string, body: string | Buffer) =>
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
    const bundled = /^\/bundle\/([\w-]+)\.js$/.exec(path)?.[1];
    if (bundled !== undefined) {
      const code = bundles.get(bundled);
      return code === undefined ? send(404, 'text/plain', 'no such bundle') : send(200, TYPES['.js']!, code);
    }
    const file = path.startsWith('/lib/')
      ? libraryFile(path)
      : /^\/[\w-]+$/.test(path)
        ? join(PAGES_DIR, `${path.slice(1)}.html`)
        : undefined;
    if (file === undefined) return send(404, 'text/plain', 'not found');
    readFile(file).then(
      (body) => send(200, TYPES[extname(file)] ?? 'application/octet-stream', body),
      () => send(404, 'text/plain', 'not found'),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    page: (name) => `${origin}/${name}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
