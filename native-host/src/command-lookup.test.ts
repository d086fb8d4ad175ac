import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandCandidates, findCommand, isRunnableFile } from './command-lookup';

/** A fresh folder `bin` holding the named files with these modes. */
function binDir(files: Record<string, number>): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'tether-lookup-')), 'bin');
  mkdirSync(dir);
  for (const [name, mode] of Object.entries(files)) {
    writeFileSync(join(dir, name), '#!/bin/sh\n');
    chmodSync(join(dir, name), mode);
  }
  return dir;
}

describe('command lookup', () => {
  it('finds executable commands on a PATH and skips non-executable files and relative entries', () => {
    const bin = binDir({ codex: 0o755, copilot: 0o644 });
    const linux = (PATH: string) => ({ env: { PATH }, platform: 'linux' as const });
    expect(findCommand('codex', linux(`relative/dir:${bin}`))).toBe(join(bin, 'codex'));
    expect(findCommand('copilot', linux(bin))).toBeUndefined();
    expect(findCommand('gemini', linux(bin))).toBeUndefined();
    expect(findCommand(join(bin, 'codex'), linux(''))).toBe(join(bin, 'codex'));
  });

  it('resolves a command with a directory in it against the working directory, not the PATH', () => {
    const bin = binDir({ agent: 0o755 });
    expect(findCommand('./bin/agent', { env: { PATH: '' }, platform: 'linux', cwd: join(bin, '..') })).toBe(
      join(bin, 'agent'),
    );
    expect(findCommand('bin/agent', { env: { PATH: bin }, platform: 'linux', cwd: '/' })).toBeUndefined();
  });

  it('tries PATH entries in order, never one that is empty or relative', () => {
    expect(commandCandidates('codex', { env: { PATH: '/a::b:/c' }, platform: 'linux' })).toEqual([
      '/a/codex',
      '/c/codex',
    ]);
  });

  it('on Windows tries each name as written and then with each PATHEXT extension, reading Path when PATH is unset', () => {
    const env = { Path: 'C:\\Tools;relative;D:\\bin', PATHEXT: '.EXE;.CMD' };
    expect(commandCandidates('codex', { env, platform: 'win32' })).toEqual([
      'C:\\Tools\\codex',
      'C:\\Tools\\codex.exe',
      'C:\\Tools\\codex.cmd',
      'D:\\bin\\codex',
      'D:\\bin\\codex.exe',
      'D:\\bin\\codex.cmd',
    ]);
    expect(commandCandidates('C:\\x\\gemini.cmd', { env, platform: 'win32' })[0]).toBe('C:\\x\\gemini.cmd');
  });

  it('on Windows runs only files with a PATHEXT extension, whatever their permission bits', () => {
    const bin = binDir({ 'copilot.cmd': 0o644, codex: 0o755 });
    const env = { PATHEXT: '.COM;.EXE;.BAT;.CMD' };
    expect(isRunnableFile(join(bin, 'copilot.cmd'), 'win32', env)).toBe(true);
    expect(isRunnableFile(join(bin, 'codex'), 'win32', env)).toBe(false);
    expect(isRunnableFile(join(bin, 'copilot.cmd'), 'win32', { PATHEXT: '.EXE' })).toBe(false);
    expect(isRunnableFile(bin, 'win32', env)).toBe(false);
  });
});
