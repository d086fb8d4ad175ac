import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { daemonFiles } from './paths';

describe("the daemon's files", () => {
  it('puts the socket in the runtime folder on Linux and macOS', () => {
    for (const platform of ['linux', 'darwin'] as const)
      expect(daemonFiles({ TETHER_RUNTIME_DIR: '/tmp/t-run' }, platform).socket).toBe('/tmp/t-run/daemon.sock');
  });

  it('names the Windows pipe after the runtime folder, so each folder has its own daemon', () => {
    const a = daemonFiles({ TETHER_RUNTIME_DIR: 'C:\\Users\\a\\run' }, 'win32').socket;
    const b = daemonFiles({ TETHER_RUNTIME_DIR: 'C:\\Users\\b\\run' }, 'win32').socket;
    const hash = createHash('sha256').update('C:\\Users\\a\\run').digest('hex').slice(0, 16);
    expect(a).toBe(`\\\\.\\pipe\\tether-daemon-${hash}`);
    expect(b).not.toBe(a);
  });
});
