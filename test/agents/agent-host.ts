/**
 * Helpers for the real-agent tests: drive `tether host` (framed stdio, as a browser does) in front of a real agent,
 * with the Tether protocol only. The set-up every agent file repeats (install the agent, start its mock model, dispose
 * the hosts after each test) lives here, registered with vitest's hooks.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { deltaText, type HostProcess, type Msg, startHost } from '../host/host-process';
import { type AgentPackage, ensureAgent } from '../support/agents-cache';

/** A host in front of one agent, with the calls the agent tests make through it. */
export interface AgentHost extends HostProcess {
  /** `initialize` (with `capabilities`, e.g. client tools) + `initialized`; resolves with the initialize result. */
  initialize(capabilities?: Record<string, unknown>): Promise<Record<string, any>>;
  /** Result of a request, or a thrown error carrying the JSON-RPC error. */
  call(method: string, params: unknown, timeoutMs?: number): Promise<any>;
  /** Starts a turn and returns its id and the index of the first message after the answer. */
  startTurn(threadId: string, text: string): Promise<{ turnId: string; from: number }>;
  /** Waits for `turn/completed` of a turn. */
  turnCompleted(turnId: string, from?: number, timeoutMs?: number): Promise<Msg>;
  /** Messages of one method after `from`. */
  messagesOf(method: string, from?: number): Msg[];
  /** Completed items after `from`. */
  completedItems(from?: number): Array<Record<string, any>>;
  /** The joined agentMessage deltas after `from`. */
  streamedText(from?: number): string;
  /** Answers the next `approval/request` server request after `from` with `decision`; resolves with its params. */
  answerApproval(decision: string, from?: number, timeoutMs?: number): Promise<Record<string, any>>;
}

/** One host's agent: a `command` backend config entry, and the host's own environment. */
export interface AgentBackend {
  readonly backend: Record<string, unknown>;
  readonly env?: Record<string, string>;
}

/** A fresh temporary directory. */
export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `tether-${prefix}-`));
}

/** Returns a starter of hosts whose default backend `id` is what `configure` says; each is disposed after its test. */
export function agentHosts<A extends unknown[]>(
  id: string,
  configure: (...args: A) => AgentBackend,
): (...args: A) => AgentHost {
  const hosts: HostProcess[] = [];
  afterEach(async () => {
    for (const h of hosts.splice(0)) await h.dispose();
  });
  return (...args) => {
    const { backend, env = {} } = configure(...args);
    const h = startHost({ config: { defaultBackend: id, backends: { [id]: { kind: 'command', ...backend } } }, env });
    hosts.push(h);
    return withAgentCalls(h);
  };
}

/** A real agent and its mock model, ready from the file's `beforeAll` until its `afterAll`. */
export interface AgentSuite<M> {
  /** The agent's installed executable. */
  readonly bin: string;
  readonly mock: M;
  /** The agent's home directory (its config points at the mock). */
  readonly home: string;
  /** The agent's working directory. */
  readonly workDir: string;
}

/** Installs `pkg` and starts its mock model before the file's tests, and closes the mock after them. */
export function agentSuite<M extends { close(): Promise<void> }>(
  name: string,
  pkg: AgentPackage,
  startMock: () => Promise<M>,
  makeHome: (mock: M) => Promise<string> | string,
): AgentSuite<M> {
  let ready: AgentSuite<M> | undefined;
  beforeAll(async () => {
    const bin = await ensureAgent(pkg);
    const mock = await startMock();
    ready = { bin, mock, home: await makeHome(mock), workDir: tempDir(`${name}-work`) };
  });
  afterAll(async () => {
    await ready?.mock.close();
  });
  const get = (): AgentSuite<M> => {
    if (ready === undefined) throw new Error(`the ${name} suite is read before its beforeAll ran`);
    return ready;
  };
  return {
    get bin() {
      return get().bin;
    },
    get mock() {
      return get().mock;
    },
    get home() {
      return get().home;
    },
    get workDir() {
      return get().workDir;
    },
  };
}

/** `h` with the calls the agent tests make through it (initialize, call, startTurn, ...). */
export function withAgentCalls(h: HostProcess): AgentHost {
  const call = async (method: string, params: unknown, timeoutMs = 60_000): Promise<any> => {
    const answer = await h.request(method, params, timeoutMs);
    if (answer.error)
      throw Object.assign(new Error(`${method} failed: ${answer.error.message}`), { rpc: answer.error });
    return answer.result;
  };
  const messagesOf = (method: string, from = 0): Msg[] => h.messages.slice(from).filter((m) => m.method === method);
  return Object.assign(h, {
    async initialize(capabilities?: Record<string, unknown>) {
      const answer = await h.request(
        'initialize',
        { clientInfo: { name: 'tether-agent-tests', version: '1.0.0' }, ...(capabilities ? { capabilities } : {}) },
        60_000,
      );
      if (answer.error)
        throw new Error(`initialize failed: ${JSON.stringify(answer.error)}; stderr: ${h.stderr().slice(-800)}`);
      h.send({ method: 'initialized' });
      return answer.result;
    },
    call,
    async startTurn(threadId: string, text: string) {
      const from = h.messages.length;
      const result = await call('turn/start', { threadId, input: [{ type: 'text', text }] });
      return { turnId: result.turn.id as string, from };
    },
    turnCompleted(turnId: string, from = 0, timeoutMs = 90_000) {
      return h.waitFor((m) => m.method === 'turn/completed' && m.params?.turn?.id === turnId, timeoutMs, from);
    },
    messagesOf,
    completedItems(from = 0) {
      return messagesOf('item/completed', from).map((m) => m.params.item);
    },
    streamedText(from = 0) {
      return deltaText(h, from);
    },
    async answerApproval(decision: string, from = 0, timeoutMs = 90_000) {
      const request = await h.waitFor((m) => m.method === 'approval/request' && m.id !== undefined, timeoutMs, from);
      h.send({ id: request.id, result: { decision } });
      return request.params;
    },
  });
}

/** Client tools as the extension declares them (page_click without annotations, as a tool that acts). */
export const PAGE_TOOLS = [
  {
    name: 'page_read',
    description: "Read the web page open in the user's tab.",
    inputSchema: { type: 'object', properties: { maxChars: { type: 'integer' } }, additionalProperties: false },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'page_click',
    description: 'Click an element of the page.',
    inputSchema: { type: 'object', properties: { ref: { type: 'string' } } },
  },
];

/** Answers the next `item/tool/call` after `from` as the extension would; resolves with its params. */
export async function answerToolCall(
  h: AgentHost,
  result: { success: boolean; content: unknown[] },
  from = 0,
): Promise<Record<string, any>> {
  const call: Msg = await h.waitFor((m) => m.method === 'item/tool/call' && m.id !== undefined, 90_000, from);
  h.send({ id: call.id, result });
  return call.params;
}
