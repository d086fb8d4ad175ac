import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { BashToolError, bashCommandOf, describeBashResult, runBash } from './bash';

const cwd = tmpdir();

describe('the bash tool', () => {
  it('runs a command in the given folder and captures stdout, stderr and the exit code', async () => {
    const r = await runBash('pwd; echo err 1>&2; exit 3', { cwd, timeoutMs: 10_000 });
    expect(r).toMatchObject({ exitCode: 3, timedOut: false, truncated: false });
    expect(r.output).toContain(cwd);
    expect(r.output).toContain('err');
    expect(describeBashResult(r, 10_000)).toMatch(/^The command exited with code 3\./);
  });

  it('kills a command that outlives its timeout, with its children', async () => {
    const r = await runBash('sleep 20 | cat', { cwd, timeoutMs: 200 });
    expect(r.timedOut).toBe(true);
    expect(describeBashResult(r, 200)).toContain('timed out after 200 ms and was killed');
  });

  it('kills the command when its signal aborts', async () => {
    const controller = new AbortController();
    const running = runBash('sleep 20', { cwd, timeoutMs: 60_000, signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    expect((await running).signal).toBe('SIGKILL');
  });

  it('cuts output at the limit and says so', async () => {
    const r = await runBash('head -c 5000 /dev/zero | tr "\\0" a', { cwd, timeoutMs: 10_000, maxOutputBytes: 1000 });
    expect(r.output).toHaveLength(1000);
    expect(r.truncated).toBe(true);
  });

  it('refuses a missing working directory and arguments without a command, saying what is wrong', async () => {
    await expect(runBash('true', { cwd: '/no/such/dir', timeoutMs: 1000 })).rejects.toThrow(
      new BashToolError('Cannot run the command: working directory /no/such/dir does not exist.'),
    );
    expect(() => bashCommandOf({ cmd: 'ls' })).toThrow('The bash tool needs {"command": "<shell command>"}.');
  });
});
