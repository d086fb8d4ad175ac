/**
 * Helpers for the real-agent tests: drive `tether host` (framed stdio, as a browser does) in front of a real agent,
 * with the Tether protocol only.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type HostProcess, type Msg, startHost } from '../host/host-process';

/** A host whose default backend is `backend` (a `command` backend config entry). */
export function hostFor(id: string, backend: Record<string, unknown>, env: Record<string, string> = {}): HostProcess {
  return startHost({ config: { defaultBackend: id, backends: { [id]: { kind: 'command', ...backend } } }, env });
}

/** A fresh temporary directory. */
export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `tether-${prefix}-`));
}

/** `initialize` + `initialized`; resolves with the initialize result. */
export async function initialize(h: HostProcess): Promise<Record<string, any>> {
  const answer = await h.request(
    'initialize',
    { clientInfo: { name: 'tether-agent-tests', version: '1.0.0' } },
    60_000,
  );
  if (answer.error)
    throw new Error(`initialize failed: ${JSON.stringify(answer.error)}; stderr: ${h.stderr().slice(-800)}`);
  h.send({ method: 'initialized' });
  return answer.result;
}

/** Result of a request, or a thrown error carrying the JSON-RPC error. */
export async function call(h: HostProcess, method: string, params: unknown, timeoutMs = 60_000): Promise<any> {
  const answer = await h.request(method, params, timeoutMs);
  if (answer.error) throw Object.assign(new Error(`${method} failed: ${answer.error.message}`), { rpc: answer.error });
  return answer.result;
}

/** Starts a turn and returns its id and the index of the first message after the answer. */
export async function startTurn(
  h: HostProcess,
  threadId: string,
  text: string,
): Promise<{ turnId: string; from: number }> {
  const from = h.messages.length;
  const result = await call(h, 'turn/start', { threadId, input: [{ type: 'text', text }] });
  return { turnId: result.turn.id as string, from };
}

/** Waits for `turn/completed` of a turn. */
export function turnCompleted(h: HostProcess, turnId: string, from = 0, timeoutMs = 90_000): Promise<Msg> {
  return h.waitFor((m) => m.method === 'turn/completed' && m.params?.turn?.id === turnId, timeoutMs, from);
}

/** Messages of one method after `from`. */
export function messagesOf(h: HostProcess, method: string, from = 0): Msg[] {
  return h.messages.slice(from).filter((m) => m.method === method);
}

/** Completed items after `from`. */
export function completedItems(h: HostProcess, from = 0): Array<Record<string, any>> {
  return messagesOf(h, 'item/completed', from).map((m) => m.params.item);
}

/** The joined agentMessage deltas after `from`. */
export function streamedText(h: HostProcess, from = 0): string {
  return messagesOf(h, 'item/agentMessage/delta', from)
    .map((m) => m.params.delta as string)
    .join('');
}

/** Answers the next `approval/request` server request after `from` with `decision`; resolves with its params. */
export async function answerApproval(
  h: HostProcess,
  decision: string,
  from = 0,
  timeoutMs = 90_000,
): Promise<Record<string, any>> {
  const request = await h.waitFor((m) => m.method === 'approval/request' && m.id !== undefined, timeoutMs, from);
  h.send({ id: request.id, result: { decision } });
  return request.params;
}
