import { describe, expect, it } from 'vitest';
import type { BackendSink } from '../backends/types';
import { FakeBackend } from '../testing/fake-backend';
import { TurnWatch } from './turn-watch';

const turn = (id: string, status: string) => ({ id, threadId: `t-${id}`, status, input: [] });
const started = (id: string) => ({ method: 'turn/started', params: { turn: turn(id, 'running') } });
const completed = (id: string) => ({ method: 'turn/completed', params: { turn: turn(id, 'completed') } });

/** A watched fake command backend and what reached the bridge's sink. */
function watched() {
  const backend = new FakeBackend('child', { kind: 'command', argv: ['x'], dialect: 'tether' });
  const watch = new TurnWatch();
  const delivered: string[] = [];
  const sink: BackendSink = {
    message: (chunk, start, end) => delivered.push(chunk.toString('utf8', start, end)),
    messageParts: (parts, length) => delivered.push(Buffer.concat(parts, length).toString('utf8')),
    problem: () => undefined,
    inputPressure: () => undefined,
    exit: () => undefined,
  };
  watch.watch(backend).start(sink);
  return { backend, watch, delivered };
}

describe('TurnWatch', () => {
  it('counts the turns a command backend starts and ends, also inside a batch, and passes every message on', () => {
    const { backend, watch, delivered } = watched();
    backend.emit(started('a'));
    backend.emit([started('b'), { method: 'item/agentMessage/delta', params: { delta: 'turn/started' } }]);
    expect(watch.runningTurns).toBe(2);
    backend.emit(completed('a'));
    expect(watch.runningTurns).toBe(1);
    expect(delivered).toHaveLength(3);
  });

  it('once detached, declines what the backend asks of the browser and resolves when the last turn ends', async () => {
    const { backend, watch } = watched();
    backend.emit(started('a'));
    backend.emit({ id: 7, method: 'approval/request', params: {} });
    expect(backend.received).toEqual([]);
    let idle = false;
    const detached = watch.detach().then(() => (idle = true));
    backend.emit({ id: 8, method: 'item/tool/call', params: {} });
    expect(backend.received).toEqual([
      { id: 8, error: expect.objectContaining({ message: expect.stringContaining('No browser is connected') }) },
    ]);
    await Promise.resolve();
    expect(idle).toBe(false);
    backend.emit(completed('a'));
    await detached;
    expect(idle).toBe(true);
  });

  it('forgets the turns of a backend that exited', async () => {
    const { backend, watch } = watched();
    backend.emit(started('a'));
    const detached = watch.detach();
    backend.crash();
    await detached;
    expect(watch.runningTurns).toBe(0);
  });
});
