import { describe, expect, it } from 'vitest';
import { LauncherPathError, parseLauncher, renderLauncher } from './launcher';

const target = (nodePath: string, hostScript: string, allowDev = false) => ({ nodePath, hostScript, allowDev });

describe('launcher', () => {
  it('quotes every character POSIX sh treats specially inside double quotes', () => {
    const text = renderLauncher('linux', target('/home/a "b"/$HOME/`x`/node\\', '/srv/tether/dist/tether.mjs'));
    expect(text.split('\n')[3]).toBe(
      'exec "/home/a \\"b\\"/\\$HOME/\\`x\\`/node\\\\" "/srv/tether/dist/tether.mjs" host "$@"',
    );
  });

  it('reads back the Node and host script it wrote, on every platform', () => {
    for (const [platform, node, script] of [
      ['linux', '/home/a "b"/$x/node', "/srv/it's/tether.mjs"],
      ['darwin', '/Users/a b/.nvm/versions/node/v22.1.0/bin/node', '/Users/a b/tether/dist/tether.mjs'],
      ['win32', 'C:\\100% sure\\node.exe', 'C:\\Users\\A & B\\tether.mjs'],
    ] as const) {
      expect(parseLauncher(platform, renderLauncher(platform, target(node, script)))).toEqual(target(node, script));
    }
  });

  it("passes --allow-dev-extension before the browser's arguments only in a --dev launcher, and reads it back", () => {
    const posix = renderLauncher('linux', target('/usr/bin/node', '/srv/tether.mjs', true));
    expect(posix).toContain('\nexec "/usr/bin/node" "/srv/tether.mjs" host --allow-dev-extension "$@"\n');
    expect(parseLauncher('linux', posix)).toEqual(target('/usr/bin/node', '/srv/tether.mjs', true));
    const cmd = renderLauncher('win32', target('C:\\node.exe', 'C:\\t.mjs', true));
    expect(cmd).toContain('\r\n@"C:\\node.exe" "C:\\t.mjs" host --allow-dev-extension %*\r\n');
    expect(parseLauncher('win32', cmd)).toEqual(target('C:\\node.exe', 'C:\\t.mjs', true));
    expect(renderLauncher('linux', target('/usr/bin/node', '/srv/tether.mjs'))).not.toContain('--allow-dev-extension');
  });

  it("names the allowed extension ids to the host before the browser's arguments, and reads them back", () => {
    const ids = {
      ...target('/usr/bin/node', '/srv/tether.mjs', true),
      allowIds: ['abcdefghijklmnopabcdefghijklmnop', 'a@b.org'],
    };
    const posix = renderLauncher('linux', ids);
    expect(posix).toContain(
      ' host --allow-dev-extension --allow-extension=abcdefghijklmnopabcdefghijklmnop --allow-extension=a@b.org "$@"\n',
    );
    expect(parseLauncher('linux', posix)).toEqual(ids);
    expect(parseLauncher('win32', renderLauncher('win32', ids))).toEqual(ids);
    expect(() => renderLauncher('linux', { ...ids, allowIds: ['a" $(x)'] })).toThrow(LauncherPathError);
  });

  it('writes a .cmd with CRLF line ends and doubled percent signs', () => {
    expect(renderLauncher('win32', target('C:\\100%\\node.exe', 'C:\\t\\tether.mjs'))).toBe(
      '@rem Tether native messaging host launcher, written by `tether install`; `tether uninstall` removes it.\r\n' +
        '@"C:\\100%%\\node.exe" "C:\\t\\tether.mjs" host %*\r\n',
    );
  });

  it('refuses a Windows path holding a double quote instead of writing a broken launcher', () => {
    expect(() => renderLauncher('win32', target('C:\\a"b\\node.exe', 'C:\\t.mjs'))).toThrow(/double quote/);
  });

  it('writes a non-ASCII Windows path through %LOCALAPPDATA%, because cmd.exe does not read .cmd files as UTF-8', () => {
    const env = { LOCALAPPDATA: 'C:\\Users\\José\\AppData\\Local', USERPROFILE: 'C:\\Users\\José' };
    const node = 'C:\\Users\\José\\AppData\\Local\\nvm\\v20\\node.exe';
    const script = 'C:\\Users\\José\\src\\tether\\dist\\tether.mjs';
    const text = renderLauncher('win32', target(node, script), env);
    expect(text.split('\r\n')[1]).toBe(
      '@"%LOCALAPPDATA%\\nvm\\v20\\node.exe" "%USERPROFILE%\\src\\tether\\dist\\tether.mjs" host %*',
    );
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the class is every ASCII character, control ones included.
    expect(/[^\x00-\x7f]/.test(text)).toBe(false);
    expect(parseLauncher('win32', text, env)).toEqual(target(node, script));
  });

  it('refuses a non-ASCII Windows path outside the user profile, saying what to do', () => {
    expect(() => renderLauncher('win32', target('D:\\Outils\\Nœud\\node.exe', 'C:\\t.mjs'), {})).toThrow(
      LauncherPathError,
    );
    expect(() => renderLauncher('win32', target('D:\\Outils\\Nœud\\node.exe', 'C:\\t.mjs'), {})).toThrow(/plain ASCII/);
  });

  it('does not mistake another script for a Tether launcher', () => {
    expect(parseLauncher('linux', '#!/usr/bin/env node\nconsole.log(1)\n')).toBeUndefined();
  });
});
