import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { inspectDaemon } from '../daemon/inspect';
import type { DaemonFiles } from '../daemon/paths';
import { useDaemonSandboxes } from '../testing/daemon';
import { doctor } from './doctor';
import { DoctorReport } from './doctor-report';
import { reportDaemon } from './doctor-daemon';
import { doctorOptions, linuxMachine } from './test-machines';

const sandbox = useDaemonSandboxes();

/** `tether doctor` on an empty Linux machine, with the daemon section inspecting the real daemon of `files`. */
async function runDoctor(files: DaemonFiles, version = '0.1.0'): Promise<string> {
  const lines: string[] = [];
  const daemon = { socket: files.socket, inspect: () => inspectDaemon(files, { fix: true, version }) };
  await doctor(linuxMachine({}), doctorOptions(lines, { tetherVersion: version, daemon }));
  return lines.join('\n');
}

const context = { command: 'tether', tetherVersion: '2.0.0', socket: '/run/user/1000/tether/daemon.sock' };
const status = {
  pid: 4242,
  version: '2.0.0',
  startedAtMs: 0,
  uptimeMs: 65 * 60_000,
  socket: context.socket,
  log: '/home/ada/.local/state/tether/daemon.log',
  clients: 2,
  connections: [
    { id: 1, browser: 'chromium', mcpSocket: '/run/user/1000/tether/host-4242-1.sock' },
    { id: 3, browser: 'firefox-esr' },
  ],
  runningTurns: 2,
  idleExitMs: 900_000,
};

function report(found: Parameters<typeof reportDaemon>[1]): { lines: string[]; failures: number; warnings: number } {
  const lines: string[] = [];
  const r = new DoctorReport((line) => lines.push(line));
  reportDaemon(r, found, context);
  return { lines, failures: r.failures, warnings: r.warnings };
}

describe("tether doctor's daemon section", () => {
  it('reports a running daemon with its pid, version, uptime, socket, clients and running turns', () => {
    const { lines, failures, warnings } = report({ state: 'running', status });
    expect(lines).toContain(
      `  ✓ running: pid 4242, version 2.0.0, up 1 h 5 min, socket ${context.socket}; 2 browser connections, 2 running turns`,
    );
    expect(failures + warnings).toBe(0);
  });

  it('lists the MCP endpoint of each browser connection, and says how to stop the daemon or run without it', () => {
    const { lines } = report({ state: 'running', status });
    expect(lines).toContain(
      '  · chromium (connection 1): MCP endpoint /run/user/1000/tether/host-4242-1.sock (`tether mcp --browser chromium`)',
    );
    expect(lines).toContain('  · firefox-esr (connection 3): its MCP endpoint for `tether mcp` is still opening');
    const text = lines.join('\n');
    expect(text).toContain('turns keep running in it while the browser is closed');
    expect(text).toContain('stop it with `tether daemon stop`');
    expect(text).toContain('TETHER_DAEMON=0');
  });

  it('warns when the daemon runs another version than this tether, naming the restart and what it interrupts', () => {
    const { lines, warnings } = report({ state: 'running', status: { ...status, version: '1.9.0' } });
    expect(warnings).toBe(1);
    expect(lines.join('\n')).toContain('the daemon runs version 1.9.0 and this is 2.0.0');
    expect(lines).toContain('      fix: tether daemon restart (interrupts 2 running turns)');
  });

  it('fails for a live daemon that holds the lock but does not answer, with the pid to stop', () => {
    const { lines, failures } = report({ state: 'unresponsive', pid: 77, reason: 'no daemon at x (ECONNREFUSED)' });
    expect(failures).toBe(1);
    expect(lines.join('\n')).toContain(`pid 77 holds the daemon's lock but does not answer on ${context.socket}`);
    expect(lines).toContain('      fix: stop it (kill 77), then run tether doctor again');
  });

  it('finds a real running daemon and reports its connected clients', async () => {
    const box = sandbox();
    const child = await box.run('--idle-exit', '60');
    await box.connect();
    const text = await runDoctor(box.files);
    expect(text).toContain('Daemon (keeps turns running while the browser is closed)');
    expect(text).toMatch(new RegExp(`✓ running: pid ${child.pid}, version [^,]+, up 0 min \\d+ s, socket `));
    expect(text).toContain('1 browser connection, 0 running turns');
    // The connection's MCP hub opens its socket just after the handshake: doctor lists it once it is there.
    await expect
      .poll(() => runDoctor(box.files), { timeout: 10_000 })
      .toMatch(new RegExp(`· test \\(connection 1\\): MCP endpoint \\S+host-${child.pid}-1\\.sock`));
  });

  it("says a daemon is not running, and removes a SIGKILLed daemon's pidfile and socket", async () => {
    const box = sandbox();
    expect(await runDoctor(box.files)).toContain(`· not running (socket ${box.files.socket})`);
    const dead = await box.run('--idle-exit', '60');
    await box.connect({ control: 'status' });
    dead.kill('SIGKILL');
    await box.exitOf(dead);
    const text = await runDoctor(box.files);
    expect(text).toContain(`✓ removed the stale pidfile ${box.files.lock}`);
    expect(text).toContain(`✓ removed the stale socket ${box.files.socket}`);
    expect(existsSync(box.files.lock) || existsSync(box.files.socket)).toBe(false);
  });
});
