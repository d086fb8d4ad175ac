/**
 * Fixture pages for page_console and page_network (fixture-site.ts serves them with the others): a page that logs at
 * every level, throws an uncaught error, leaves a promise rejected, and makes three requests: one answered 404 and
 * sent with an Authorization header, one to a port nothing listens on (`?dead=PORT`), and one whose JSON answer
 * carries a session token (DEVTOOLS_DATA), which the page reads. Its status line says when all three are over, so a
 * test knows the page has done everything before it asks.
 */
import type { PageContext } from './fixture-pages';

/** The bearer token the page sends: a test checks it never comes back unmasked. */
export const FIXTURE_TOKEN = 'fixture-token-5f3a9c1e7b';

/** The session token in the JSON the page fetches: a test checks its response body comes back with it masked. */
export const SESSION_TOKEN = 'sess-8c1d4e7f2a9b6c3d5e0f';

/** The non-HTML answers of the site by path (fixture-site.ts serves them with their content type). */
export const DEVTOOLS_DATA: Readonly<Record<string, { type: string; body: string }>> = {
  '/api/session': {
    type: 'application/json',
    body: JSON.stringify({ user: 'ada', session_token: SESSION_TOKEN, roles: ['reader', 'editor'] }),
  },
};

function consolePage(ctx: PageContext): string {
  const dead = Number(ctx.query.get('dead') ?? '9');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Console and network</title></head>
<body><main><h1>Console and network</h1><p id="status">working</p>
<button type="button" id="later" onclick="console.error('later failure', 7)">Log later</button></main>
<script>
console.log('fixture log', 42, { a: 1 });
console.info('fixture info');
console.warn('fixture warning: %s', 'low disk');
console.error('fixture error', new Error('bad state'));
console.debug('fixture debug');
Promise.reject(new Error('fixture rejection'));
setTimeout(() => { throw new Error('fixture uncaught'); }, 0);
const done = [];
const finish = (what) => {
  done.push(what);
  if (done.length === 3) document.getElementById('status').textContent = 'requests over: ' + done.sort().join(', ');
};
fetch('/api/missing', { headers: { Authorization: 'Bearer ' + ${JSON.stringify(FIXTURE_TOKEN)} } }).then(
  (r) => finish('missing ' + r.status),
  () => finish('missing failed'),
);
fetch('/api/session').then((r) => r.json()).then(
  (session) => finish('session ' + session.user),
  () => finish('session failed'),
);
fetch('http://127.0.0.1:${dead}/unreachable').then(
  (r) => finish('dead ' + r.status),
  () => finish('dead refused'),
);
</script></body></html>`;
}

/** The pages by path. */
export const DEVTOOLS_PAGES = { '/console': consolePage };
