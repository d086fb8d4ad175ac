import { describe, expect, it } from 'vitest';
import { createMemorySystem } from '../install/memory-system';
import { TETHER_VERSION } from '../version';
import { printConfig, stableEntry } from './client-config';

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
    const text = printConfig('/opt/t/tether.mjs', {}, '/usr/bin/node');
    expect(text).toContain('claude mcp add --scope user tether -- /usr/bin/node /opt/t/tether.mjs mcp');
    expect(text).toContain(
      [
        '[mcp_servers.tether]',
        'command = "/usr/bin/node"',
        'args = ["/opt/t/tether.mjs", "mcp"]',
        'default_tools_approval_mode = "approve"',
      ].join('\n'),
    );
    expect(JSON.parse(text.slice(text.indexOf('\n{\n')))).toEqual({
      mcpServers: { tether: { command: '/usr/bin/node', args: ['/opt/t/tether.mjs', 'mcp'] } },
    });
  });

  it("says that Tether's panel asks for every call, and how to switch off each client's own prompt", () => {
    const text = printConfig('/opt/t/tether.mjs', {}, '/usr/bin/node');
    expect(text).toContain("Tether's side panel asks you before every call");
    expect(text).toContain('claude --allowedTools mcp__tether');
    expect(text).toContain('default_tools_approval_mode = "approve"');
    expect(text).toContain('approval_policy = "never"');
  });

  it('quotes paths with spaces for the shell, as the macOS data folder has', () => {
    const cli = '/Users/ada/Library/Application Support/tether/host/1/tether.mjs';
    const text = printConfig(cli, {}, '/usr/local/bin/node');
    expect(text).toContain(`-- /usr/local/bin/node '${cli}' mcp`);
    expect(text).toContain(`args = ["${cli}", "mcp"]`);
  });

  it('passes a TETHER_RUNTIME_DIR in effect to every client, which would not inherit it', () => {
    const text = printConfig('/opt/t/tether.mjs', { TETHER_RUNTIME_DIR: '/srv/run dir' }, '/usr/bin/node');
    expect(text).toContain("claude mcp add --scope user tether -e 'TETHER_RUNTIME_DIR=/srv/run dir' -- /usr/bin/node");
    expect(text).toContain('env = { TETHER_RUNTIME_DIR = "/srv/run dir" }');
    expect(JSON.parse(text.slice(text.indexOf('\n{\n'))).mcpServers.tether.env).toEqual({
      TETHER_RUNTIME_DIR: '/srv/run dir',
    });
  });
});
