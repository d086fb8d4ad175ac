#!/usr/bin/env node
// What the dialect adapters cost on a streamed answer: a turn of N text deltas from a scripted agent (Codex's wire,
// then ACP's) through the codex and acp adapters to a Tether client, next to the same N messages passed through an
// in-memory transport with no adapter. In-process, so it measures translation only (no pipes, no model).
// Then how long each preset's real agent (pinned in the test agents' cache, installed on first use) takes from spawn
// to its answer to `initialize`, with the preset's argv and env and the offline variables of the real-agent tests.
// Usage: node bench/agents.bench.mjs [--quick] [--no-publish]   (writes bench/results/agents.json and the "Agents"
// section of BENCHMARKS.md; --no-publish only prints)
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { fmt, importTypeScript, machine, median, timeOneTurn, tmp, writeResults, writeSection } from './support.mjs';

const quick = process.argv.includes('--quick');
const DELTAS = quick ? 20_000 : 100_000;
const RUNS = quick ? 1 : 5;

const publish = !process.argv.includes('--no-publish');
const STARTS = quick ? 2 : 5;

const {
  createCodexAdapter,
  createAcpAdapter,
  createMemoryTransportPair,
  BACKEND_PRESETS,
  ensureAgent,
  packages,
  writeCodexHome,
  CLAUDE_OFFLINE_ENV,
  writeGeminiOfflineSettings,
} = await importTypeScript(
  'agents',
  [
    "export { createCodexAdapter } from './native-host/src/backends/codex-adapter';",
    "export { createAcpAdapter } from './native-host/src/backends/acp-adapter';",
    "export { createMemoryTransportPair } from './protocol/src/index';",
    "export { BACKEND_PRESETS } from './native-host/src/backends/presets';",
    "export { writeCodexHome } from './test/support/mock-responses-api';",
    "import { CODEX_PACKAGE, COPILOT_PACKAGE, CLAUDE_CODE_ACP_PACKAGE, GEMINI_PACKAGE } from './test/support/agents-cache';",
    "export { ensureAgent } from './test/support/agents-cache';",
    "export { CLAUDE_OFFLINE_ENV, writeGeminiOfflineSettings } from './test/support/agents-offline';",
    'export const packages = { codex: CODEX_PACKAGE, copilot: COPILOT_PACKAGE, claude: CLAUDE_CODE_ACP_PACKAGE, gemini: GEMINI_PACKAGE };',
  ].join('\n'),
);

/** A fake agent on `transport`: `answer(method, params, id, send)` handles each request. */
function fakeAgent(transport, answer, jsonrpc) {
  const send = (m) => transport.send(jsonrpc ? { jsonrpc: '2.0', ...m } : m);
  transport.start({
    onClose() {},
    onMessage: (m) => (m.method && m.id !== undefined ? answer(m.method, m.params, m.id, send) : undefined),
  });
}

function codexAgent(n) {
  const threadId = '01a22bcb-195a-7101-a36a-06272c42029a';
  const thread = {
    id: threadId,
    preview: '',
    ephemeral: false,
    model: 'mock-model',
    createdAt: 1,
    updatedAt: 1,
    status: { type: 'idle' },
    cwd: '/tmp',
    turns: [],
  };
  return (method, _params, id, send) => {
    if (method === 'initialize') return send({ id, result: { userAgent: 'tether/0.171.0 (bench)' } });
    if (method === 'thread/start') return send({ id, result: { thread, model: 'mock-model' } });
    if (method !== 'turn/start') return send({ id, result: {} });
    const turnId = 'turn-1';
    const at = Date.now();
    send({ id, result: { turn: { id: turnId, items: [], status: 'inProgress', error: null } } });
    send({
      method: 'turn/started',
      params: { threadId, turn: { id: turnId, items: [], status: 'inProgress', startedAt: 1 } },
      emittedAtMs: at,
    });
    const item = { type: 'agentMessage', id: 'msg-1', text: '', phase: null, startedAtMs: at, completedAtMs: null };
    send({ method: 'item/started', params: { item, threadId, turnId, startedAtMs: at }, emittedAtMs: at });
    for (let i = 0; i < n; i++)
      send({
        method: 'item/agentMessage/delta',
        params: { threadId, turnId, itemId: 'msg-1', delta: 'token ' },
        emittedAtMs: at,
      });
    send({
      method: 'item/completed',
      params: { item: { ...item, text: 'done', completedAtMs: at }, threadId, turnId },
      emittedAtMs: at,
    });
    send({
      method: 'turn/completed',
      params: { threadId, turn: { id: turnId, items: [], status: 'completed', completedAt: 2 } },
      emittedAtMs: at,
    });
  };
}

function acpAgent(n) {
  return (method, _params, id, send) => {
    if (method === 'initialize')
      return send({
        id,
        result: { protocolVersion: 1, agentCapabilities: {}, agentInfo: { name: 'bench', version: '1' } },
      });
    if (method === 'session/new') return send({ id, result: { sessionId: 'sess-1' } });
    if (method !== 'session/prompt') return send({ id, result: {} });
    for (let i = 0; i < n; i++)
      send({
        method: 'session/update',
        params: {
          sessionId: 'sess-1',
          update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'token ' } },
        },
      });
    send({ id, result: { stopReason: 'end_turn' } });
  };
}

/** Runs one turn through `adapter` and resolves with [ms, messages received]. */
async function throughAdapter(create, agent, jsonrpc) {
  const [agentSide, upstream] = createMemoryTransportPair();
  fakeAgent(agentSide, agent, jsonrpc);
  const adapter = create(upstream, {
    backendId: 'bench',
    dataDir: join(tmp, `journal-${Date.now()}-${Math.random()}`),
    log() {},
  });
  let received = 0;
  const ms = await timeOneTurn(adapter, { cwd: tmp }, 'go', () => received++);
  adapter.close();
  return [ms, received];
}

/** The same number of delta messages through a bare in-memory transport. */
async function passthrough(n) {
  const [a, b] = createMemoryTransportPair();
  let received = 0;
  let done;
  const finished = new Promise((r) => (done = r));
  b.start({ onClose() {}, onMessage: (m) => (received++, m.method === 'turn/completed' && done()) });
  a.start({ onClose() {}, onMessage() {} });
  const start = performance.now();
  for (let i = 0; i < n; i++)
    a.send({ method: 'item/agentMessage/delta', params: { threadId: 't', turnId: 'u', itemId: 'i', delta: 'token ' } });
  a.send({ method: 'turn/completed', params: { turn: { id: 'u' } } });
  await finished;
  return [performance.now() - start, received];
}

async function measure(label, run) {
  const times = [];
  let count = 0;
  for (let i = 0; i < RUNS; i++) {
    const [ms, received] = await run();
    times.push(ms);
    count = received;
  }
  const ms = median(times);
  const row = {
    label,
    deltas: DELTAS,
    messages: count,
    ms: Math.round(ms),
    deltasPerSecond: Math.round(DELTAS / (ms / 1000)),
  };
  console.log(
    `${label.padEnd(44)} ${String(row.ms).padStart(6)} ms  ${fmt(row.deltasPerSecond).padStart(12)} deltas/s`,
  );
  return row;
}

const rows = [
  await measure('in-memory transport, no adapter', () => passthrough(DELTAS)),
  await measure('codex adapter (Codex wire -> Tether)', () =>
    throughAdapter(createCodexAdapter, codexAgent(DELTAS), false),
  ),
  await measure('acp adapter (ACP session/update -> Tether)', () =>
    throughAdapter(createAcpAdapter, acpAgent(DELTAS), true),
  ),
];

/** Nothing listens here: an agent that tries its model or a service during start-up fails fast instead of waiting. */
const CLOSED = 'http://127.0.0.1:9';

/** A fresh HOME (and CODEX_HOME) with what each agent needs to start offline; the env it starts with. */
async function agentEnv(id, presetEnv) {
  const home = mkdtempSync(join(tmp, `home-${id}-`));
  writeGeminiOfflineSettings(home);
  const env = { PATH: process.env.PATH ?? '', HOME: home, LANG: 'C.UTF-8', ...presetEnv };
  if (id === 'codex')
    return { ...env, CODEX_HOME: await writeCodexHome(join(home, 'codex'), CLOSED), RUST_LOG: 'error' };
  if (id === 'copilot') return { ...env, COPILOT_PROVIDER_BASE_URL: `${CLOSED}/v1`, COPILOT_MODEL: 'gpt-4.1' };
  if (id === 'claude') return { ...env, ANTHROPIC_BASE_URL: CLOSED, ANTHROPIC_API_KEY: 'x', ...CLAUDE_OFFLINE_ENV };
  return { ...env, GOOGLE_GEMINI_BASE_URL: CLOSED };
}

/** Milliseconds from spawn to the agent's answer to `initialize` (its own wire: Codex's or ACP's). */
function timeInitialize(argv, env, dialect) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(argv[0], argv.slice(1), { env, cwd: tmp, stdio: ['pipe', 'pipe', 'ignore'], detached: true });
    const kill = () => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    };
    const timer = setTimeout(() => (kill(), reject(new Error(`${argv[0]} did not answer initialize in 60 s`))), 60_000);
    let buffer = '';
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      if (!buffer.split('\n').some((line) => line.includes('"id":1') && line.includes('"result"'))) return;
      const ms = performance.now() - start;
      clearTimeout(timer);
      kill();
      resolve(ms);
    });
    child.once('error', (error) => (clearTimeout(timer), reject(error)));
    const params =
      dialect === 'acp'
        ? { protocolVersion: 1, clientCapabilities: {}, clientInfo: { name: 'bench', version: '1' } }
        : { clientInfo: { name: 'bench', title: 'Bench', version: '1' }, capabilities: null };
    child.stdin.write(
      `${JSON.stringify({ ...(dialect === 'acp' ? { jsonrpc: '2.0' } : {}), id: 1, method: 'initialize', params })}\n`,
    );
  });
}

/** Each preset as configured, plus Gemini with its relaunch (what the preset's GEMINI_CLI_NO_RELAUNCH saves). */
const startups = [];
for (const preset of BACKEND_PRESETS) {
  const bin = await ensureAgent(packages[preset.id]);
  const argv = [bin, ...preset.argv.slice(1)];
  startups.push({
    label: `${preset.id} (${preset.argv.join(' ')})`,
    argv,
    env: await agentEnv(preset.id, preset.env ?? {}),
    dialect: preset.dialect,
  });
  if (preset.id === 'gemini')
    startups.push({
      label: 'gemini, relaunching itself (no GEMINI_CLI_NO_RELAUNCH)',
      argv,
      env: await agentEnv('gemini', {}),
      dialect: 'acp',
    });
}
// Interleaved, so a slow moment of the machine spreads over every agent.
const startTimes = startups.map(() => []);
for (let run = 0; run < STARTS; run++)
  for (const [i, s] of startups.entries()) startTimes[i].push(await timeInitialize(s.argv, s.env, s.dialect));
const startRows = startups.map((s, i) => ({
  label: s.label,
  medianMs: Math.round(median(startTimes[i])),
  minMs: Math.round(Math.min(...startTimes[i])),
  maxMs: Math.round(Math.max(...startTimes[i])),
}));
console.log('');
for (const r of startRows)
  console.log(`${r.label.padEnd(58)} ${String(r.medianMs).padStart(6)} ms to initialize (${r.minMs}-${r.maxMs})`);

const { cpu, cores, node } = machine();
const meta = { date: new Date().toISOString(), node, cpu, cores, runs: RUNS, starts: STARTS, quick };
if (!publish) process.exit(0);
writeResults('agents', { meta, rows, startRows });

const section = [
  '## Agents',
  '',
  `One streamed turn of ${fmt(DELTAS)} text deltas from a scripted agent through each dialect adapter to a Tether`,
  'client, in-process (in-memory transports on both sides, so this is the cost of translation alone), next to the same',
  'number of messages through a bare in-memory transport (each adapter row includes that same hop from the scripted',
  `agent, so the difference is the adapter). Median of ${RUNS} run(s); ${meta.cpu}, ${meta.cores} cores, Node ${meta.node}.`,
  '`node bench/agents.bench.mjs` writes this section.',
  '',
  '| path | time | deltas/s | messages to the client |',
  '|---|---:|---:|---:|',
  ...rows.map((r) => `| ${r.label} | ${r.ms} ms | ${fmt(r.deltasPerSecond)} | ${fmt(r.messages)} |`),
  '',
  'Real agents are far slower than either (a model streams tens to hundreds of deltas a second), so the adapters do not',
  'limit streaming; the real-agent tests (`test/agents/`) check behaviour, not speed.',
  '',
  `Start-up of each preset's real agent (the pinned versions of the real-agent tests), from spawn to its answer to`,
  `\`initialize\`, with the preset's argv and env, offline; median (min-max) of ${STARTS} interleaved starts:`,
  '',
  '| preset | to initialize |',
  '|---|---:|',
  ...startRows.map((r) => `| ${r.label} | ${r.medianMs} ms (${r.minMs}-${r.maxMs}) |`),
  '',
].join('\n');
writeSection('Agents', section);
console.log('\nwrote bench/results/agents.json and the "Agents" section of BENCHMARKS.md');
