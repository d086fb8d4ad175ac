import { describe, expect, it } from 'vitest';
import { LauncherPathError, parseLauncher, renderLauncher } from './launcher';

describe('launcher', () => {
  it('quotes every character POSIX sh treats specially inside double quotes', () => {
    const text = renderLauncher('linux', '/home/a "b"/$HOME/`x`/node\\', '/srv/tether/dist/tether.mjs');
    expect(text.split('\n')[3]).toBe('exec "/home/a \\"b\\"/\\$HOME/\\`x\\`/node\\\\" "/srv/tether/dist/tether.mjs" host "$@"');
  });

  it('reads back the Node and host script it wrote, on every platform', () => {
    for (const [platform, node, script] of [
      ['linux', '/home/a "b"/$x/node', '/srv/it\'s/tether.mjs'],
      ['darwin', '/Users/a b/.nvm/versions/node/v22.1.0/bin/node', '/Users/a b/tether/dist/tether.mjs'],
      ['win32', 'C:\\100% sure\\node.exe', 'C:\\Users\\A & B\\tether.mjs'],
    ] as const) {
      expect(parseLauncher(platform, renderLauncher(platform, node, script))).toEqual({ nodePath: node, hostScript: script });
    }
  });

  it('writes a .cmd with CRLF line ends and doubled percent signs', () => {
    expect(renderLauncher('win32', 'C:\\100%\\node.exe', 'C:\\t\\tether.mjs')).toBe(
      '@rem Tether native messaging host launcher, written by `tether install`; `tether uninstall` removes it.\r\n' +
        '@"C:\\100%%\\node.exe" "C:\\t\\tether.mjs" host %*\r\n',
    );
  });

  it('refuses a Windows path holding a double quote instead of writing a broken launcher', () => {
    expect(() => renderLauncher('win32', 'C:\\a"b\\node.exe', 'C:\\t.mjs')).toThrow(/double quote/);
  });

  it('writes a non-ASCII Windows path through %LOCALAPPDATA%, because cmd.exe does not read .cmd files as UTF-8', () => {
    const env = { LOCALAPPDATA: 'C:\\Users\\José\\AppData\\Local', USERPROFILE: 'C:\\Users\\José' };
    const node = 'C:\\Users\\José\\AppData\\Local\\nvm\\v20\\node.exe';
    const script = 'C:\\Users\\José\\src\\tether\\dist\\tether.mjs';
    const text = renderLauncher('win32', node, script, env);
    expect(text.split('\r\n')[1]).toBe('@"%LOCALAPPDATA%\\nvm\\v20\\node.exe" "%USERPROFILE%\\src\\tether\\dist\\tether.mjs" host %*');
    expect(/[^\x00-\x7f]/.test(text)).toBe(false);
    expect(parseLauncher('win32', text, env)).toEqual({ nodePath: node, hostScript: script });
  });

  it('refuses a non-ASCII Windows path outside the user profile, saying what to do', () => {
    expect(() => renderLauncher('win32', 'D:\\Outils\\Nœud\\node.exe', 'C:\\t.mjs', {})).toThrow(LauncherPathError);
    expect(() => renderLauncher('win32', 'D:\\Outils\\Nœud\\node.exe', 'C:\\t.mjs', {})).toThrow(/plain ASCII/);
  });

  it('does not mistake another script for a Tether launcher', () => {
    expect(parseLauncher('linux', '#!/usr/bin/env node\nconsole.log(1)\n')).toBeUndefined();
  });
});
