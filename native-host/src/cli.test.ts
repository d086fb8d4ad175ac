import { afterEach, describe, expect, it, vi } from 'vitest';
import { run } from './cli';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('tether', () => {
  it('answers a command named like an inherited member ("constructor", "toString") as an unknown command', async () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    for (const name of ['constructor', 'toString', '__proto__']) {
      expect(await run([name])).toBe(2);
      expect(written.join('')).toContain(`tether: unknown command "${name}"`);
    }
  });
});
