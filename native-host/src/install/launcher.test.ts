import { describe, expect, it } from 'vitest';
import { parseLauncher, renderLauncher } from './launcher';

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

  it('does not mistake another script for a Tether launcher', () => {
    expect(parseLauncher('linux', '#!/usr/bin/env node\nconsole.log(1)\n')).toBeUndefined();
  });
});
