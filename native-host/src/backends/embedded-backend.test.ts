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
    const request = Buffer.from(JSON.stringify({ id: 1, method: 'initialize', params: { clientInfo: { name: 't', version: '1' } } }));
    backend.sendRange(request, 0, request.length);
    await gotAnswer;
    expect(out[0]).toMatchObject({ id: 1, result: { serverInfo: expect.any(Object) } });
    await backend.stop();
    expect(exit?.message).toBe('The "embedded" backend was stopped');
  });
});
