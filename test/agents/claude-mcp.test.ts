/**
 * The real Claude Code (2.1.44, the `cli.js` that claude-code-acp's pinned package brings) as a user runs it,
 * `claude -p`, with Tether added by running the `claude mcp add` line `tether mcp --print-config` prints, unedited,
 * and `--allowedTools mcp__tether` as that config advises, against a real `tether host` (the test plays the extension)
 * and a mock Messages API on 127.0.0.1. The page's text must reach the model.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLAUDE_CODE_ACP_PACKAGE, installDirOf } from '../support/agents-cache';
import { CLAUDE_OFFLINE_ENV } from '../support/agents-offline';
import {
  type AnthropicRequestBody,
  lastUserBlocks,
  startMockAnthropicMessages,
} from '../support/mock-anthropic-messages';
import { privateDir, runCommand, sharedTabHosts } from '../host/mcp-host';
import { agentSuite, tempDir } from './agent-host';

const claude = agentSuite('claude', CLAUDE_CODE_ACP_PACKAGE, startMockAnthropicMessages, () => tempDir('claude-home'));

const startSharing = sharedTabHosts();

describe('real Claude Code with the printed config', () => {
  it('claude -p reads the shared tab through the printed `claude mcp add` line; the page text reaches the model', async () => {
    const { h, printed } = await startSharing();
    const add = printed.stdout.split('\n').find((line) => line.startsWith('claude mcp add '));
    expect(add).toBeDefined();

    // `claude` on PATH, as an install puts it there.
    const bin = privateDir('claude-bin-');
    const cli = join(installDirOf(CLAUDE_CODE_ACP_PACKAGE), 'node_modules/@anthropic-ai/claude-agent-sdk/cli.js');
    writeFileSync(join(bin, 'claude'), `#!/bin/sh\nexec '${process.execPath}' '${cli}' "$@"\n`, { mode: 0o700 });
    const env = {
      HOME: claude.home,
      PATH: `${bin}:${process.env['PATH'] ?? ''}`,
      ANTHROPIC_BASE_URL: claude.mock.origin,
      ANTHROPIC_API_KEY: 'mock-key',
      ...CLAUDE_OFFLINE_ENV,
    };
    const added = await runCommand('/bin/sh', ['-c', add!], env, claude.workDir);
    expect(added.code, added.stderr).toBe(0);

    const pageText = 'Tether test page: the quick brown fox.';
    claude.mock.setScript(({ body }: { body: AnthropicRequestBody }) => {
      const result = lastUserBlocks(body).find((b) => b.type === 'tool_result');
      if (result) return { kind: 'text', text: `The page says: ${JSON.stringify(result.content)}` };
      if (body.tools?.some((t) => t.name === 'mcp__tether__page_read')) {
        return { kind: 'toolUse', name: 'mcp__tether__page_read', input: {} };
      }
      return { kind: 'text', text: `no Tether tools among ${body.tools?.map((t) => t.name).join(', ')}` };
    });
    const asked = runCommand('claude', ['-p', 'Read the page', '--allowedTools', 'mcp__tether'], env, claude.workDir);
    const ended = asked.then((r) => {
      throw new Error(`claude -p ended before calling Tether (exit ${r.code}): ${r.stdout}\n${r.stderr.slice(-3000)}`);
    });
    const call = await Promise.race([h.waitFor((m) => m.method === 'item/tool/call', 90_000), ended]);
    ended.catch(() => undefined);
    expect(call.params).toMatchObject({ tool: 'page_read', caller: { kind: 'mcpClient', name: 'claude-code' } });
    h.send({ id: call.id, result: { success: true, content: [{ type: 'text', text: pageText }] } });
    const done = await asked;
    expect(done.code, done.stderr.slice(-2000)).toBe(0);
    expect(done.stdout).toContain(pageText);
  });
});
