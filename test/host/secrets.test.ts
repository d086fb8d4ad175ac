/**
 * No planted secret leaves `tether host`: keys in the config file's backend env, in the host's environment, in the
 * base URL (user-info and `?api-key=`), echoed by a model server's 401 body, and printed by a dying backend on stderr
 * are looked for in everything the host wrote: every file under its data, state and config folders (journals,
 * indexes, host.log) and every frame it sent to the browser. The folders and files it created are private under
 * umask 022.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_BACKEND, type HostProcess, logsOf, type Msg, startHost } from './host-process';

const SECRETS = {
  configEnv: 'cfgEnvSecret0001',
  configEnvFake: 'cfgEnvSecret0002',
  processEnv: 'procEnvSecret0003',
  apiKey: 'apiKeySecret0004',
  urlUser: 'urlUserName0005',
  urlPassword: 'urlPassSecret0006',
  urlQuery: 'urlQuerySecret0007',
} as const;

/** Every form a planted secret could be written in: as is, URL-encoded, and inside the Basic credentials. */
const FORBIDDEN = [
  ...Object.values(SECRETS),
  Buffer.from(`${SECRETS.urlUser}:${SECRETS.urlPassword}`).toString('base64'),
];

let server: Server;
let port: number;
const requests: string[] = [];

beforeAll(async () => {
  // An OpenAI-compatible endpoint that refuses everything and quotes what it was sent, as some proxies do.
  server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const auth = req.headers.authorization ?? '';
    const basic = auth.startsWith('Basic ') ? Buffer.from(auth.slice(6), 'base64').toString('utf8') : '';
    req.resume();
    req.on('end', () =>
      res
        .writeHead(401, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: `Incorrect API key provided: ${auth} (${basic}) for ${req.url}` } })),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const hosts: HostProcess[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.dispose();
});

const config = {
  defaultBackend: 'embedded',
  backends: {
    embedded: { kind: 'embedded', model: 'openai' },
    leaky: {
      kind: 'command',
      argv: [
        process.execPath,
        '-e',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: this is the source of a script the backend runs.
        'process.stderr.write(`provider rejected key ${process.env.LEAKY_CREDENTIAL} (ACME_SERVICE_KEY=${process.env.ACME_SERVICE_KEY})\\n`); process.exit(3)',
      ],
      env: { LEAKY_CREDENTIAL: SECRETS.configEnv },
    },
    fake: { kind: 'command', argv: [process.execPath, FAKE_BACKEND], env: { FAKE_PASSPHRASE: SECRETS.configEnvFake } },
  },
};

/** Runs the host with the secrets planted, drives every path that could carry one, and returns once it exited. */
async function plantedRun(env: Record<string, string>): Promise<HostProcess> {
  const previous = process.umask(0o022);
  let h: HostProcess;
  try {
    h = startHost({
      config,
      env: {
        ACME_SERVICE_KEY: SECRETS.processEnv,
        OPENAI_API_KEY: '',
        OPENAI_BASE_URL: '',
        TETHER_OPENAI_MODEL: 'mock-model',
        ...env,
      },
    });
  } finally {
    process.umask(previous);
  }
  hosts.push(h);
  const clientInfo = { name: 'secrets-test', version: '1' };

  // A backend that prints the key on stderr, then dies: its stderr tail goes to the browser.
  expect((await h.request('bridge/hello', { clientInfo, backend: 'leaky' })).result.backend).toBe('leaky');
  const exited = await h.waitFor((m) => m.method === 'bridge/backend/exited', 10_000);
  expect(exited.params.stderrTail.join('\n')).toContain('provider rejected key ***');

  // A passed-through backend that echoes known values back, and writes a non-JSON line quoting one.
  await h.request('bridge/hello', { clientInfo, backend: 'fake' });
  await h.request('initialize', { clientInfo });
  const echo = await h.request('fake/echo', {
    said: `${SECRETS.configEnvFake} ${SECRETS.processEnv} ${SECRETS.configEnv}`,
  });
  expect(echo.result).toEqual({ said: '*** *** ***' });
  await h.request('fake/garbage', { lines: [`debug: passphrase is ${SECRETS.configEnvFake}`] });

  // The embedded app-server with the openai model, against the endpoint that echoes the key in its 401 body.
  await h.request('bridge/hello', { clientInfo, backend: 'embedded' });
  await h.request('initialize', { clientInfo });
  h.send({ method: 'initialized' });
  await h.request('model/list', {});
  const started = await h.request('thread/start', { title: `thread of ${SECRETS.processEnv}` });
  const threadId = started.result.thread.id as string;
  await h.request('turn/start', { threadId, input: [{ text: `my key is ${SECRETS.processEnv}, is it valid?` }] });
  const completed: Msg = await h.waitFor(
    (m) => m.method === 'turn/completed' && m.params.turn?.threadId === threadId,
    20_000,
  );
  expect(completed.params.turn.status).toBe('failed');
  expect(completed.params.turn.error.message).toMatch(/HTTP 401.*Incorrect API key provided: (Bearer|Basic) \*\*\*/);

  h.closeInput();
  expect((await h.exited).code).toBe(0);
  return h;
}

/** Every file under `dir` but the config file the test wrote (which holds the secrets by design). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile() && path !== join(dir, 'config.json'));
}

function expectNothingLeaked(h: HostProcess): void {
  const written: Array<[string, string]> = [
    ...filesUnder(h.dir).map((path): [string, string] => [path, readFileSync(path, 'utf8')]),
    ['stdout (every frame to the browser)', h.frames.map((f) => f.payload.toString('utf8')).join('\n')],
    ['stderr', h.stderr()],
  ];
  const names = written.map(([name]) => name.slice(h.dir.length));
  expect(names).toEqual(expect.arrayContaining(['/state/tether/host.log', '/data/tether/threads/index.jsonl']));
  expect(names.some((n) => /^\/data\/tether\/threads\/.+\.jsonl$/.test(n) && !n.endsWith('index.jsonl'))).toBe(true);
  for (const [name, text] of written) {
    for (const secret of FORBIDDEN) {
      for (const form of [secret, encodeURIComponent(secret)])
        expect(text.includes(form), `${secret} in ${name}`).toBe(false);
    }
  }
  // Through the daemon, what the backend said is in daemon.log (in-process, in host.log): either way redacted.
  const log = logsOf(h);
  expect(log).toContain('provider rejected key ***');
  expect(log).toMatch(/model\/list: .*HTTP 401/);
}

function expectPrivate(h: HostProcess): void {
  for (const root of ['data/tether', 'state/tether']) {
    const dir = join(h.dir, root);
    for (const path of [dir, ...readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((n) => join(dir, n))]) {
      const stat = statSync(path);
      expect([path, stat.mode & 0o777]).toEqual([path, stat.isDirectory() ? 0o700 : 0o600]);
    }
  }
}

describe('tether host and secrets', () => {
  it('writes no planted secret to any journal, index, log or frame, and keeps its folders and files private', async () => {
    // With an API key, and a secret query parameter in the base URL (kept after the path of each request).
    const withKey = await plantedRun({
      TETHER_OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1?api-key=${SECRETS.urlQuery}`,
      TETHER_OPENAI_API_KEY: SECRETS.apiKey,
    });
    expect(requests).toContain(`POST /v1/chat/completions?api-key=${SECRETS.urlQuery}`);
    expectNothingLeaked(withKey);
    expectPrivate(withKey);

    // With user-info in the base URL instead (sent as Basic credentials).
    requests.length = 0;
    const withUserInfo = await plantedRun({
      TETHER_OPENAI_BASE_URL: `http://${SECRETS.urlUser}:${SECRETS.urlPassword}@127.0.0.1:${port}/v1?api-key=${SECRETS.urlQuery}`,
      TETHER_OPENAI_API_KEY: '',
    });
    expect(requests).toContain(`POST /v1/chat/completions?api-key=${SECRETS.urlQuery}`);
    expectNothingLeaked(withUserInfo);
    expectPrivate(withUserInfo);
  });
});
