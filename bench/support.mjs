// What every benchmark in bench/ shares: the repository paths, the host bundle, TypeScript bundling, summary
// statistics and number formatting, and writing its figures to bench/results/ and its section of BENCHMARKS.md.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, platform, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository root. */
export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Scratch space of the benchmarks (git-ignored): bundles, data directories. */
export const tmp = join(root, 'bench/results/tmp');

/** Builds native-host/dist/tether.mjs when it is older than its sources; resolves with its path. */
export { ensureHostBundle } from '../native-host/scripts/host-bundle.mjs';

/**
 * Bundles TypeScript `contents` (import paths relative to the repository root) into bench/results/tmp/NAME.mjs and
 * imports it: Node 20 cannot strip types. `options` are passed on to esbuild.
 */
export async function importTypeScript(name, contents, options = {}) {
  const { build } = await import('esbuild');
  mkdirSync(tmp, { recursive: true });
  const outfile = join(tmp, `${name}.mjs`);
  await build({
    stdin: { contents, resolveDir: root, loader: 'ts' },
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'error',
    // Bundled CommonJS dependencies call require(), which an ES module does not have.
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    ...options,
  });
  return import(pathToFileURL(outfile).href);
}

/**
 * The widget suite (test/widgets/) and its drivers, bundled from the tests' TypeScript: the tasks and their site, and
 * the page tools of Tether through `tether mcp`, of Playwright MCP through its own server, and of the page agent in
 * Firefox ESR. The benchmarks drive the tools through these, the way the suite's tests do.
 */
export function importWidgetSuite() {
  return importTypeScript(
    'widgets-suite',
    [
      "export { runSuite } from './test/widgets/suite';",
      "export { findRef } from './test/widgets/solver';",
      "export { TASKS, TASK_FILES } from './test/widgets/tasks';",
      "export { startWidgetSite } from './test/widgets/widget-site';",
      "export { startTetherMcp } from './test/widgets/drivers/tether-mcp';",
      "export { startPlaywrightMcp } from './test/widgets/drivers/playwright-mcp';",
      "export { startFirefoxAgent } from './test/widgets/drivers/firefox-agent';",
      "export { startFixtureSite } from './test/support/fixture-site';",
    ].join('\n'),
    {
      external: ['playwright-core', 'puppeteer-core', '@modelcontextprotocol/sdk', 'esbuild', 'rolldown', 'zod'],
      // The test helpers find the repository from their own place (two folders below the root).
      define: { 'import.meta.url': JSON.stringify(pathToFileURL(join(root, 'test/support/bundle.mjs')).href) },
    },
  );
}

/** The protocol package's codec (splitters, decoders, encoders), bundled once: what drivers read the processes with. */
export function importCodec() {
  return importTypeScript('codec', "export * from './protocol/src/codec/index';", { platform: 'neutral' });
}

/**
 * Starts a real `tether app-server --listen stdio` (`dist`: the bundled tether.mjs; `args` follow `--listen stdio`;
 * `home`: its HOME) with a JSONL client of it that reads with the protocol's own codec.
 */
export async function spawnAppServer(dist, args, home) {
  const { JsonlDecoder } = await importCodec();
  return new AppServerProcess(dist, args, home, JsonlDecoder);
}

/** Requests by id, notifications to `onNotification` and to `notification(test)` waiters, memory from /proc. */
class AppServerProcess {
  constructor(dist, args, home, JsonlDecoder) {
    this.child = spawn(process.execPath, [dist, 'app-server', '--listen', 'stdio', ...args], {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: { PATH: process.env.PATH, HOME: home },
    });
    this.pending = new Map();
    this.waiters = [];
    this.onNotification = () => {};
    this.nextId = 1;
    const decoder = new JsonlDecoder({
      message: (message) => {
        if (message.id !== undefined && message.method === undefined) this.pending.get(message.id)?.(message);
        else {
          this.onNotification(message);
          this.waiters = this.waiters.filter((w) => !w(message));
        }
      },
      error: (error) => {
        throw error;
      },
    });
    this.child.stdout.on('data', (chunk) => decoder.push(chunk));
  }
  request(method, params) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, (m) => (m.error ? reject(new Error(`${method}: ${m.error.message}`)) : resolve(m.result)));
      this.child.stdin.write(`${JSON.stringify({ id, method, params })}\n`);
    });
  }
  /** The first notification from now on that passes `test`. */
  notification(test) {
    return new Promise((resolve) => this.waiters.push((m) => (test(m) ? (resolve(m), true) : false)));
  }
  async initialize() {
    const result = await this.request('initialize', { clientInfo: { name: 'bench', version: '1' } });
    this.child.stdin.write('{"method":"initialized"}\n');
    return result;
  }
  /** Resident set now and its peak so far (Linux), in MB; NaN where /proc cannot tell. */
  rssMb() {
    try {
      const status = readFileSync(`/proc/${this.child.pid}/status`, 'utf8');
      const kb = (key) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN) / 1024;
      return { now: kb('VmRSS'), peak: kb('VmHWM') };
    } catch {
      return { now: NaN, peak: NaN };
    }
  }
  /** Peak resident set so far, in MB. */
  peakRssMb() {
    return this.rssMb().peak;
  }
  async stop() {
    this.child.stdin.end();
    await new Promise((resolve) => this.child.once('exit', resolve));
  }
}

/** The middle value of `xs` (the upper one of the two middles for an even count). */
/** Spawn to first output of a bare Node (`node -e`), in ms: the floor under any host's cold start. */
export function nodeBaseline() {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['-e', 'process.stdout.write("x")'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout.once('data', () => resolve(performance.now() - t0));
  });
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** `n` with thousands separators and exactly `digits` decimals (en-US). */
export const fmt = (n, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** A native-messaging frame: 4-byte little-endian length, then the UTF-8 of `text`. */
export function nativeFrame(text) {
  const body = Buffer.from(text);
  const header = Buffer.alloc(4);
  header.writeUInt32LE(body.length);
  return Buffer.concat([header, body]);
}

/** The machine a benchmark runs on. */
export function machine() {
  return {
    cpu: cpus()[0]?.model.trim() ?? 'unknown CPU',
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: platform(),
  };
}

/** Writes `data` as bench/results/NAME.json. */
export function writeResults(name, data) {
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(join(root, `bench/results/${name}.json`), `${JSON.stringify(data, null, 2)}\n`);
}

/** Replaces (or appends) the "## TITLE" section of BENCHMARKS.md with `section`, leaving the other sections alone. */
export function writeSection(title, section) {
  const file = join(root, 'BENCHMARKS.md');
  const header =
    '# Benchmarks\n\nMeasured figures for Tether; each section is written by its benchmark in `bench/` (`npm run bench`).\n';
  const text = existsSync(file) ? readFileSync(file, 'utf8') : header;
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.trim() === `## ${title}`);
  if (start === -1) {
    writeFileSync(file, `${text.replace(/\n*$/, '\n\n')}${section}`);
    return;
  }
  let end = lines.findIndex((l, i) => i > start && l.startsWith('## '));
  if (end === -1) end = lines.length;
  const before = lines.slice(0, start).join('\n');
  const after = lines.slice(end).join('\n');
  writeFileSync(file, `${before.replace(/\n*$/, '\n\n')}${section}${after ? `\n${after}` : ''}`);
}

/**
 * Writes a benchmark's figures (bench/results/NAME.json) and, when `section` is given, its "## TITLE" section of
 * BENCHMARKS.md, and says so.
 */
export function publish(name, data, title, section) {
  writeResults(name, data);
  if (section === undefined) return;
  writeSection(title, section);
  console.log(`\nwrote bench/results/${name}.json and the "${title}" section of BENCHMARKS.md`);
}

/**
 * Runs one turn through `transport` (an app-server's or adapter's client end, in memory) as a bare client:
 * `initialize`, `thread/start` with `threadParams`, then `turn/start` with `text`. `onMessage` sees every message from
 * the `turn/start` on, up to and including `turn/completed`. Resolves with the milliseconds the turn took.
 */
export async function timeOneTurn(transport, threadParams, text, onMessage) {
  const waiting = new Map();
  let counting = false;
  let turnDone;
  const completed = new Promise((resolve) => (turnDone = resolve));
  transport.start({
    onMessage(m) {
      if (counting) onMessage(m);
      if (m.method === 'turn/completed') turnDone();
      else if (m.id !== undefined && !m.method) waiting.get(m.id)?.(m.result);
    },
    onClose() {},
  });
  const call = (id, method, params) =>
    new Promise((resolve) => (waiting.set(id, resolve), transport.send({ id, method, params })));
  await call(1, 'initialize', { clientInfo: { name: 'bench', version: '1' } });
  transport.send({ method: 'initialized' });
  const { thread } = await call(2, 'thread/start', threadParams);
  counting = true;
  const t0 = performance.now();
  transport.send({ id: 3, method: 'turn/start', params: { threadId: thread.id, input: [{ text }] } });
  await completed;
  return performance.now() - t0;
}
