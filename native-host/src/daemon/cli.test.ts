import { describe as suite, expect, it, vi } from 'vitest';
import { describe, main } from './cli';

suite('tether daemon', () => {
  it('refuses an unknown command, an unknown argument and an idle exit that is not a positive number (exit 2)', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await main(['start'])).toBe(2);
      expect(await main(['run', '--bogus'])).toBe(2);
      expect(await main(['run', '--idle-exit', 'soon'])).toBe(2);
      expect(await main(['run', '--idle-exit', '0'])).toBe(2);
      const said = stderr.mock.calls.map((c) => String(c[0])).join('');
      expect(said).toContain('unknown command "start"');
      expect(said).toContain('unknown argument "--bogus"');
      expect(said).toContain('the idle exit must be a number of seconds above 0; got "soon"');
      expect(said).toContain('usage: tether daemon [run|status|stop|restart] [--idle-exit SECONDS]');
    } finally {
      stderr.mockRestore();
    }
  });

  it('prints pid, version, uptime, socket, clients, running turns and the log in status', () => {
    const text = describe({
      pid: 4242,
      version: '1.2.3',
      startedAtMs: 0,
      uptimeMs: (2 * 60 + 5) * 60_000,
      socket: '/run/user/1000/tether/daemon.sock',
      log: '/home/ada/.local/state/tether/daemon.log',
      clients: 2,
      runningTurns: 1,
      idleExitMs: 900_000,
    });
    expect(text).toMatch(/pid\s+4242/);
    expect(text).toMatch(/version\s+1\.2\.3/);
    expect(text).toMatch(/uptime\s+2 h 5 min/);
    expect(text).toMatch(/socket\s+\/run\/user\/1000\/tether\/daemon\.sock/);
    expect(text).toMatch(/clients\s+2/);
    expect(text).toMatch(/running turns\s+1/);
    expect(text).toMatch(/idle exit\s+after 900 s/);
    expect(text).toMatch(/log\s+\/home\/ada\/\.local\/state\/tether\/daemon\.log/);
  });
});
