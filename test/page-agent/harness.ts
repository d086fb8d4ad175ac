/**
 * Drives the page agent in real Chromium without the extension: the agent's source bundled to one IIFE (as the
 * worker's `?iife` import does) and added to each page; pages served from a fake origin through request routing so
 * links, forms and navigations behave as on a site. The agent runs in the main world here, not the isolated one.
 */
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { rolldown } from 'rolldown';
import { type AgentCall, FrameSnapshot } from '../../extension/src/shared/agent-contract';
import { installDialogShim } from '../../extension/src/content/dialog-shim';
import { CHROMIUM_PATH, REPO_ROOT } from '../support/browser';

/** Origin the fixture pages are served from. */
export const ORIGIN = 'http://shop.tether.test';

/** The agent as one IIFE script, as the extension injects it. */
export async function bundleAgent(): Promise<string> {
  const bundle = await rolldown({
    input: join(REPO_ROOT, 'extension/src/content/page-agent.ts'),
    platform: 'browser',
    logLevel: 'silent',
  });
  const { output } = await bundle.generate({ format: 'iife' });
  await bundle.close();
  return output[0].code;
}

/** Headless Debian Chromium. */
function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
}

/** A page whose requests to ORIGIN are answered from `pages` (path -> HTML); posts are recorded in `posted`. */
async function openSite(
  browser: Browser,
  pages: Record<string, string>,
  agent: string,
): Promise<{ page: Page; posted: string[] }> {
  const page = await browser.newPage();
  const posted: string[] = [];
  await page.route(`${ORIGIN}/**`, async (route) => {
    const request = route.request();
    const url = new URL(request.url());
    if (request.method() === 'POST') posted.push(`${url.pathname} ${request.postData() ?? ''}`);
    const body = pages[url.pathname] ?? '<!doctype html><title>Done</title><p>Received</p>';
    await route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body });
  });
  page.on('load', () => {
    page.addScriptTag({ content: agent }).catch(() => undefined);
  });
  return { page, posted };
}

/** Chromium with one page on ORIGIN (see openSite), and the agent's bundle. */
export interface Site {
  browser: Browser;
  page: Page;
  posted: string[];
  agent: string;
}

/**
 * Bundles the agent, launches Chromium and opens one page serving `pages`. The agent is added to each page it loads
 * unless `mainWorld` is false (a test that installs it in an isolated world). Close `browser` when done.
 */
export async function startSite(pages: Record<string, string>, { mainWorld = true } = {}): Promise<Site> {
  const [agent, browser] = await Promise.all([bundleAgent(), launchChromium()]);
  const { page, posted } = await openSite(browser, pages, mainWorld ? agent : '');
  return { browser, page, posted, agent };
}

/** Goes to `path` on ORIGIN and installs the agent. */
export async function visit(page: Page, path: string, agent: string): Promise<void> {
  await page.goto(`${ORIGIN}${path}`);
  await page.addScriptTag({ content: agent });
}

/** One call to the agent, as the worker makes it. */
export function agentCall<T = unknown>(page: Page, call: AgentCall): Promise<T> {
  return page.evaluate(
    (c) => (globalThis as unknown as { __tetherPageAgent: { call(c: unknown): unknown } }).__tetherPageAgent.call(c),
    call,
  ) as Promise<T>;
}

/** Installs the main-world dialog shim as the worker does before an action. */
export function installShim(page: Page, channel: string): Promise<boolean> {
  return page.evaluate(installDialogShim, channel);
}

/** A login form: email, password, remember me, a select and a button. */
export function loginPage(): string {
  return `<!doctype html><html><head><title>Sign in</title></head><body>
<a class="skip" href="#main" style="position:absolute;left:-9999px;top:0">Skip to content</a>
<header><nav aria-label="Site"><a href="/">Home</a> <a href="/help">Help</a></nav></header>
<main id="main"><h1>Sign in</h1>
<form action="/login" method="post">
  <label for="email">Email</label><input id="email" name="email" type="email" required>
  <label for="pw">Password</label><input id="pw" name="password" type="password" required>
  <label><input type="checkbox" name="remember"> Remember me</label>
  <label for="lang">Language</label><select id="lang" name="lang"><option value="en">English</option><option value="fr">Français</option></select>
  <button>Sign in</button>
</form>
<p>No account? <a href="/signup">Create one</a>.</p></main>
<span class="sr-only" style="position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)">Screen reader note</span>
</body></html>`;
}

/** loginPage() as the agent writes it, in any browser. */
export const LOGIN_SNAPSHOT = [
  '- banner:',
  '  - navigation "Site":',
  '    - link "Home" [ref=e1] /url: /',
  '    - link "Help" [ref=e2] /url: /help',
  '- main:',
  '  - heading "Sign in" [level=1]',
  '  - form:',
  '    - textbox "Email" [required] [type=email] [ref=e3]',
  '    - textbox "Password" [required] [password] [ref=e4]',
  '    - checkbox "Remember me" [ref=e5]',
  '    - combobox "Language" [ref=e6]: English',
  '    - button "Sign in" [ref=e7]',
  '  - text: No account? Create one.',
  '    - link "Create one" [ref=e8] /url: /signup',
];

/** An article of six sections with a nav, a search box and a comment form. */
export function articlePage(): string {
  const sections = Array.from({ length: 6 }, (_, s) => {
    const paragraphs = Array.from(
      { length: 8 },
      (_, p) =>
        `<p>Paragraph ${p + 1} of section ${s + 1} explains how tide pools form along rocky shores, why the creatures living in them cope with heat and salt, and what visitors should avoid when they explore them at low tide; see <a href="/notes/${s}-${p}">note ${s}.${p}</a> for sources.</p>`,
    ).join('');
    return `<section aria-labelledby="h${s}"><h2 id="h${s}">Section ${s + 1}</h2>${paragraphs}</section>`;
  }).join('');
  return `<!doctype html><html><head><title>Tide pools</title></head><body>
<header><nav><ul><li><a href="/">Home</a></li><li><a href="/articles">Articles</a></li><li><a href="/about">About</a></li></ul></nav>
<form role="search" action="/search"><input type="search" name="q" aria-label="Search"><button>Search</button></form></header>
<main><article><h1>Life in tide pools</h1>${sections}</article>
<form action="/comment" method="post" aria-label="Comment"><label>Name <input name="name"></label><label>Comment <textarea name="body"></textarea></label><button>Post comment</button></form></main>
<footer><p>© Tide pool society</p></footer></body></html>`;
}

/** A table of `rows` rows: a checkbox, four cells, Edit and Delete buttons. */
export function tablePage(rows = 500): string {
  const roles = ['Admin', 'Editor', 'Viewer'];
  const body = Array.from(
    { length: rows },
    (_, i) =>
      `<tr><td><input type="checkbox" aria-label="Select row ${i + 1}"></td><td>User ${i + 1}</td><td>user${i + 1}@example.com</td><td>${roles[i % 3]}</td><td>${i % 4 === 0 ? 'Inactive' : 'Active'}</td><td><button>Edit</button> <button>Delete</button></td></tr>`,
  ).join('\n');
  return `<!doctype html><html><head><title>Users</title></head><body><main><h1>Users</h1>
<table><caption>Users</caption><thead><tr><th></th><th>Name</th><th>Email</th><th>Role</th><th>Status</th><th>Actions</th></tr></thead>
<tbody>${body}</tbody></table></main></body></html>`;
}

/** The agent installed in a fresh isolated world of the page's main frame (as an extension's content script is). */
export interface IsolatedAgent {
  call<T = unknown>(call: AgentCall): Promise<T>;
  /** Evaluates an expression in the isolated world. */
  evaluate<T = unknown>(expression: string): Promise<T>;
}

/** Creates an isolated world through CDP (the mechanism extensions' content scripts use) and installs the agent in it. */
export async function installIsolated(page: Page, agent: string): Promise<IsolatedAgent> {
  const cdp = await page.context().newCDPSession(page);
  const { frameTree } = await cdp.send('Page.getFrameTree');
  const { executionContextId } = await cdp.send('Page.createIsolatedWorld', {
    frameId: frameTree.frame.id,
    worldName: 'tether-isolated-test',
  });
  const evaluate = async <T>(expression: string): Promise<T> => {
    const reply = await cdp.send('Runtime.evaluate', {
      expression,
      contextId: executionContextId,
      awaitPromise: true,
      returnByValue: true,
    });
    if (reply.exceptionDetails)
      throw new Error(reply.exceptionDetails.exception?.description ?? reply.exceptionDetails.text);
    return reply.result.value as T;
  };
  await evaluate(agent);
  return {
    evaluate,
    call: (call) => evaluate(`globalThis.__tetherPageAgent.call(${JSON.stringify(call)})`),
  };
}

/** The ref on the first snapshot line of `page` that contains `text`; throws with the snapshot when there is none. */
export async function refOnLine(page: Page, text: string, maxChars = 100_000): Promise<string> {
  const snap = FrameSnapshot.parse(await agentCall(page, { op: 'snapshot', prefix: '', maxChars }));
  const ref = /\[ref=(e\d+)\]/.exec(snap.lines.find((l) => l.includes(text)) ?? '')?.[1];
  if (!ref) throw new Error(`No ref on a line with ${text}:\n${snap.lines.join('\n')}`);
  return ref;
}
