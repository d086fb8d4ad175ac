import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ChildHandle, describeExit, exitReport, findSetpriv, resolveCommand, spawnBackend } from './spawn';

const options = { env: process.env, configFile: '/home/u/.config/tether/config.json', log: () => undefined };

/** Starts `sh -c script` as the backend "sh" (with `env` in its config), collecting what it logs. */
function startSh(script: string, env?: Record<string, string>): { handle: ChildHandle; logged: string[] } {
  const logged: string[] = [];
  const handle = spawnBackend(
    'sh',
    { kind: 'command', argv: ['sh', '-c', script], ...(env ? { env } : {}), dialect: 'tether' },
    { ...options, log: (line) => logged.push(line) },
  );
  if (!('child' in handle)) throw new Error(handle.message);
  return { handle, logged };
}

describe('resolveCommand', () => {
  it('finds a command on PATH, a path relative to cwd, and nothing for a missing one', () => {
    const env = { PATH: `/nonexistent:${dirname(process.execPath)}` };
    expect(resolveCommand('node', env, '/')).toBe(process.execPath);
    expect(resolveCommand(`./${process.execPath.split('/').pop()}`, env, dirname(process.execPath))).toBe(
      process.execPath,
    );
    expect(resolveCommand('tether-no-such-command', env, '/')).toBeUndefined();
  });
});

describe('spawnBackend', () => {
  it('explains a missing command and a missing working directory with the config field to fix', () => {
    const missing = spawnBackend('vv', { kind: 'command', argv: ['tether-no-such-agent'], dialect: 'tether' }, options);
    expect('child' in missing).toBe(false);
    if (!('child' in missing)) {
      expect(missing.failedToStart).toBe(true);
      expect(missing.message).toContain('backends.vv.argv[0] of /home/u/.config/tether/config.json');
    }
    const noCwd = spawnBackend(
      'vv',
      { kind: 'command', argv: ['cat'], cwd: '/nonexistent/dir', dialect: 'tether' },
      options,
    );
    if (!('child' in noCwd)) expect(noCwd.message).toContain('backends.vv.cwd');
    else throw new Error('expected a failure');
  });

  it('starts the child with a parent-death signal on Linux and stops it with EOF', async () => {
    const handle = spawnBackend('cat', { kind: 'command', argv: ['cat'], dialect: 'tether' }, options);
    if (!('child' in handle)) throw new Error(handle.message);
    if (process.platform === 'linux' && findSetpriv()) {
      await new Promise((r) => setTimeout(r, 100));
      // setpriv has exec'ed cat: the process is cat itself, with PR_SET_PDEATHSIG set.
      expect(readFileSync(`/proc/${handle.pid}/comm`, 'utf8').trim()).toBe('cat');
    }
    await handle.stop();
    expect(await handle.exited).toEqual({ code: 0, signal: null });
  });

  it('keeps the last stderr lines and copies them to the log', async () => {
    const { handle, logged } = startSh(
      'for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22; do echo "line $i" >&2; done; exit 4',
    );
    const { code } = await handle.exited;
    await new Promise((r) => setTimeout(r, 50));
    expect(code).toBe(4);
    const tail = handle.stderrTail();
    expect(tail).toHaveLength(20);
    expect(tail.at(-1)).toBe('line 22');
    expect(logged).toContain('backend sh stderr: line 1');
    expect(describeExit('sh', code, null)).toBe('The "sh" backend exited with code 4');
    expect(describeExit('sh', null, 'SIGKILL')).toBe('The "sh" backend was killed by SIGKILL');
    expect(exitReport('sh', handle, await handle.exited)).toEqual({
      code: 4,
      signal: null,
      stderrTail: tail,
      message: 'The "sh" backend exited with code 4',
      failedToStart: false,
    });
  });

  it('masks the secrets of its env and well-known key shapes in the stderr tail and the log', async () => {
    const { handle, logged } = startSh(
      'echo "auth failed for $LLM_CREDENTIAL" >&2; echo "retry with sk-abcdefghijklmnopqrstu" >&2; printf "$LLM_CREDENTIAL" >&2; exit 3',
      { LLM_CREDENTIAL: 'stderr-known-secret-5' },
    );
    await handle.exited;
    await new Promise((r) => setTimeout(r, 50));
    const written = JSON.stringify([handle.stderrTail(), logged.filter((l) => l.includes(' stderr: '))]);
    expect(written).not.toContain('stderr-known-secret-5');
    expect(written).not.toContain('abcdefghijklmnopqrstu');
    expect(handle.stderrTail()).toEqual(['auth failed for ***', 'retry with sk-***', '***']);
  });
});
