/**
 * `tether doctor` starting the host as the browser would (launcher, arguments, environment, Node) and reading what it
 * does: answers initialize, exits once stdin closes, or fails in one of the ways a browser only reports as an exit.
 */
import { describe, expect, it } from 'vitest';
import { scriptedHost } from './memory-system';
import {
  goodHost,
  IN_PROCESS,
  installedLinux,
  LINUX,
  LINUX_LAUNCHER,
  OWN_IDS,
  OWN_ORIGIN,
  runDoctor,
} from './test-machines';

describe('tether doctor starting the host as the browser would', () => {
  it("starts Chromium's host with the origin and Firefox's with the manifest path and add-on id", async () => {
    const sys = await installedLinux({ dirs: [] });
    await runDoctor(sys);
    expect(sys.spawns).toEqual([
      { file: LINUX_LAUNCHER, args: [OWN_ORIGIN], cwd: '/home/ada/.local/share/tether/bin', env: IN_PROCESS },
      {
        file: LINUX_LAUNCHER,
        args: ['/home/ada/.mozilla/native-messaging-hosts/dev.tether.bridge.json', OWN_IDS.firefox],
        cwd: '/home/ada/.local/share/tether/bin',
        env: IN_PROCESS,
      },
    ]);
  });

  it('reports a launcher that is not executable, with the chmod that fixes it', async () => {
    const sys = await installedLinux();
    await sys.fs.chmod(LINUX_LAUNCHER, 0o644);
    const { code, lines } = await runDoctor(sys, { browsers: ['chromium'] });

    expect(code).toBe(1);
    expect(lines).toContain(`  ✗ the host ${LINUX_LAUNCHER} is not executable`);
    expect(lines).toContain('      the browser says: "Native host has exited."');
    expect(lines).toContain(`      fix: chmod 755 "${LINUX_LAUNCHER}" (or tether install --browser chromium)`);
  });

  it('reports a launcher whose Node is too old or gone', async () => {
    const old = await installedLinux({
      commands: { [LINUX.node]: () => ({ code: 0, stdout: 'v18.19.0\n', stderr: '' }) },
    });
    expect((await runDoctor(old, { browsers: ['chromium'] })).lines).toContain(
      `  ✗ Node ${LINUX.node} is v18.19.0; Tether needs 20 or newer`,
    );

    const gone = await installedLinux();
    await gone.fs.removeFile(LINUX.node);
    const { lines } = await runDoctor(gone, { browsers: ['chromium'] });
    expect(lines).toContain(
      `  ✗ Node ${LINUX.node} is missing or not executable (moved, or removed by a version manager such as nvm)`,
    );
  });

  it('reports a host that exits before answering, with the tail of its stderr', async () => {
    const sys = await installedLinux({
      spawn: () => {
        const child = scriptedHost(() => undefined, 'tether host: Invalid Tether config file\n');
        queueMicrotask(() => child.kill());
        return child;
      },
    });
    const { code, lines, text } = await runDoctor(sys, { browsers: ['chromium'] });

    expect(code).toBe(1);
    expect(text).toMatch(
      /✗ started as Chromium would \(.*\): the host was killed by SIGKILL before answering initialize/,
    );
    expect(lines).toContain('      | tether host: Invalid Tether config file');
    expect(lines).toContain('      the browser says: "Native host has exited."');
  });

  it('reports an error answer to initialize without a browser message, with every line of it', async () => {
    const sys = await installedLinux({
      spawn: () =>
        scriptedHost((m) => ({
          id: m.id,
          error: { code: -32050, message: 'Backend unavailable: vv-agent not found\nFix: install it' },
        })),
    });
    const { code, lines } = await runDoctor(sys, { browsers: ['chromium'] });

    expect(code).toBe(1);
    expect(lines.find((l) => l.startsWith('  ✗ started as Chromium would'))).toMatch(
      /: the host answered initialize with error -32050: Backend unavailable: vv-agent not found$/,
    );
    expect(lines).toContain('      | Fix: install it');
    expect(lines.some((l) => l.includes('the browser says'))).toBe(false);
  });

  it('fails when the host does not exit after stdin closes, as Chromium would then kill it', async () => {
    const sys = await installedLinux({
      spawn: () => {
        const host = goodHost();
        return { ...host, endInput: () => {} };
      },
    });
    const { code, lines } = await runDoctor(sys, { browsers: ['chromium'], exitWaitMs: 0 });

    expect(code).toBe(1);
    expect(lines).toContain(
      '  ✗ the host had not exited after stdin closed: Chromium kills it after 2000 ms, stranding its backend',
    );
  });
});
