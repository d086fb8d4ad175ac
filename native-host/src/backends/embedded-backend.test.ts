import { describe, expect, it } from 'vitest';
import { EmbeddedBackend } from './embedded-backend';
import type { BackendExit } from './types';

describe('EmbeddedBackend', () => {
  it('serves the reference app-server in memory: one parse in, one serialisation out', async () => {
    const backend = new EmbeddedBackend(
      'embedded',
      { kind: 'embedded', dialect: 'tether', dataDir: null },
      { configFile: '/x/config.json', dataDir: '/unused', maxLineBytes: 1024, log: () => undefined },
    );
    const out: unknown[] = [];
    let exit: BackendExit | undefined;
    let answered!: () => void;
    const gotAnswer = new Promise<void>((r) => (answered = r));
    backend.start({
      message: (chunk, start, end) => {
        out.push(JSON.parse(chunk.toString('utf8', start, end)));
        answered();
      },
      messageParts: () => undefined,
      problem: () => undefined,
      inputPressure: () => undefined,
      exit: (info) => (exit = info),
    });
    const request = Buffer.from(
      JSON.stringify({ id: 1, method: 'initialize', params: { clientInfo: { name: 't', version: '1' } } }),
    );
    backend.sendRange(request, 0, request.length);
    await gotAnswer;
    expect(out[0]).toMatchObject({ id: 1, result: { serverInfo: expect.any(Object) } });
    await backend.stop();
    expect(exit?.message).toBe('The "embedded" backend was stopped');
  });

  it('holds a fast stream back while the browser is behind and finishes it once the browser caught up', async () => {
    const backend = new EmbeddedBackend(
      'embedded',
      { kind: 'embedded', dialect: 'tether', dataDir: null },
      { configFile: '/x/config.json', dataDir: '/unused', maxLineBytes: 1024, log: () => undefined },
    );
    const answers = new Map<number, { result?: { thread?: { id: string } } }>();
    let deltas = 0;
    let completed = false;
    backend.start({
      message: (chunk, start, end) => {
        const m = JSON.parse(chunk.toString('utf8', start, end)) as {
          id?: number;
          method?: string;
          result?: { thread?: { id: string } };
        };
        if (m.id !== undefined) answers.set(m.id, m);
        if (m.method === 'item/agentMessage/delta') deltas++;
        if (m.method === 'turn/completed') completed = true;
      },
      messageParts: () => undefined,
      problem: () => undefined,
      inputPressure: () => undefined,
      exit: () => undefined,
    });
    const send = (message: unknown): void => {
      const bytes = Buffer.from(JSON.stringify(message));
      backend.sendRange(bytes, 0, bytes.length);
    };
    const until = async (done: () => boolean): Promise<void> => {
      while (!done()) await new Promise((resolve) => setImmediate(resolve));
    };
    const ticks = async (n: number): Promise<void> => {
      for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
    };
    send({ id: 1, method: 'initialize', params: { clientInfo: { name: 't', version: '1' } } });
    send({ method: 'initialized' });
    send({ id: 2, method: 'thread/start', params: {} });
    await until(() => answers.has(2));
    backend.pauseOutput(true);
    send({
      id: 3,
      method: 'turn/start',
      params: { threadId: answers.get(2)!.result!.thread!.id, input: [{ text: '/stream 2000' }] },
    });
    await until(() => deltas > 0);
    await ticks(50);
    const heldAt = deltas;
    expect(heldAt).toBeLessThan(2000);
    backend.pauseOutput(false);
    await until(() => completed);
    expect(deltas).toBe(2000);
    await backend.stop();
  });
});
