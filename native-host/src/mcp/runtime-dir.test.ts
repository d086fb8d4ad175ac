import { describe, expect, it } from 'vitest';
import { RUNTIME_DIR_ENV, runtimeDir } from './runtime-dir';

const ours = { isDirectory: () => true, uid: 1000, mode: 0o40700 };

describe('runtimeDir', () => {
  it('is the same for the host with XDG_RUNTIME_DIR and for tether mcp started with only what Codex passes', () => {
    const lstat = (path: string) => (path === '/run/user/1000' ? ours : undefined);
    const host = runtimeDir({ XDG_RUNTIME_DIR: '/run/user/1000', HOME: '/home/ada', DISPLAY: ':0' }, 'linux', {
      uid: 1000,
      lstat,
    });
    const codex = runtimeDir(
      { HOME: '/home/ada', PATH: '/usr/bin', LANG: 'C.UTF-8', SHELL: '/bin/bash', TERM: 'dumb' },
      'linux',
      { uid: 1000, lstat },
    );
    expect(host).toBe('/run/user/1000/tether');
    expect(codex).toBe(host);
  });

  it("falls back to /tmp/tether-UID when /run/user/UID is missing, someone else's or open to others", () => {
    const cases = [
      undefined,
      { ...ours, uid: 0 },
      { ...ours, mode: 0o40755 },
      { isDirectory: () => false, uid: 1000, mode: 0o120777 },
    ];
    for (const stat of cases) {
      expect(runtimeDir({ XDG_RUNTIME_DIR: '/elsewhere' }, 'linux', { uid: 1000, lstat: () => stat })).toBe(
        '/tmp/tether-1000',
      );
    }
  });

  it('on macOS does not depend on TMPDIR, which only the environment knows', () => {
    const withTmp = runtimeDir({ TMPDIR: '/var/folders/xy/abc/T/' }, 'darwin', { uid: 501 });
    expect(withTmp).toBe('/tmp/tether-501');
    expect(runtimeDir({}, 'darwin', { uid: 501 })).toBe(withTmp);
  });

  it("on Windows is under the user's home, whatever LOCALAPPDATA says", () => {
    const dir = runtimeDir({ LOCALAPPDATA: 'D:\\moved' }, 'win32', { home: 'C:\\Users\\ada' });
    expect(dir).toBe('C:\\Users\\ada\\AppData\\Local\\tether\\run');
  });

  it('takes TETHER_RUNTIME_DIR as an override when it is absolute, and ignores a relative one', () => {
    expect(runtimeDir({ [RUNTIME_DIR_ENV]: '/srv/t' }, 'linux', { uid: 7, lstat: () => undefined })).toBe('/srv/t');
    expect(runtimeDir({ [RUNTIME_DIR_ENV]: 'rel' }, 'linux', { uid: 7, lstat: () => undefined })).toBe('/tmp/tether-7');
  });
});
