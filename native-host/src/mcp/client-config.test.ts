import { describe, expect, it } from 'vitest';
import { createMemorySystem } from '../install/memory-system';
import { TETHER_VERSION } from '../version';
import { printConfig, stableEntry } from './cli';

describe('tether mcp --print-config', () => {
  it('names the copy tether install made for this version, which outlives an npx cache or a checkout', async () => {
    const copy = `/home/ada/.local/share/tether/host/${TETHER_VERSION}/tether.mjs`;
    const installed = createMemorySystem({ platform: 'linux', homedir: '/home/ada', env: {}, files: { [copy]: '' } });
    expect(await stableEntry('/home/ada/.npm/_npx/1/tether.mjs', installed)).toBe(copy);
    const bare = createMemorySystem({ platform: 'linux', homedir: '/home/ada', env: {} });
    expect(await stableEntry('/work/tether/native-host/bin/tether.mjs', bare)).toBe(
      '/work/tether/native-host/bin/tether.mjs',
    );
  });

  it('prints the lines for Claude Code, Codex and Cursor with that script and this Node', () => {
    const text = printConfig('/opt/t/tether.mjs');
    expect(text).toContain(`claude mcp add tether -- ${process.execPath} /opt/t/tether.mjs mcp`);
    expect(text).toContain('args = ["/opt/t/tether.mjs", "mcp"]');
    expect(JSON.parse(text.slice(text.indexOf('{')))).toEqual({
      mcpServers: { tether: { command: process.execPath, args: ['/opt/t/tether.mjs', 'mcp'] } },
    });
  });
});
