/**
 * The real Codex CLI (npm @openai/codex, pinned) as a user runs it, `codex exec`, with Tether added exactly as
 * `tether mcp --print-config` prints it for `~/.codex/config.toml`, against a real `tether host` (the test plays the
 * extension) and a mock Responses API on 127.0.0.1. Codex starts `tether mcp` with its own stripped environment, and
 * `exec` runs under `approval_policy = "never"`: the printed lines must still reach the host for a reading and an
 * acting tool, and the page's text must reach the model.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CODEX_PACKAGE } from '../support/agents-cache';
import { startMockResponsesApi, writeCodexHome } from '../support/mock-responses-api';
import { privateDir, runCommand, sharedTabHosts } from '../host/mcp-host';
import { agentSuite, tempDir } from './agent-host';

const codex = agentSuite('codex', CODEX_PACKAGE, startMockResponsesApi, (mock) =>
  writeCodexHome(tempDir('codex-home'), mock.origin),
);

const startSharing = sharedTabHosts();

/** The Codex lines of `--print-config`, from `[mcp_servers.tether]` to the blank line that ends them. */
function codexLines(printed: string): string {
  const start = printed.indexOf('[mcp_servers.tether]');
  expect(start).toBeGreaterThanOrEqual(0);
  return printed.slice(start, printed.indexOf('\n\n', start) + 1);
}

describe('real Codex CLI with the printed config', () => {
  it('codex exec runs an acting and a reading Tether tool under approval_policy "never"; the page text reaches the model', async () => {
    const { h, printed } = await startSharing();
    expect(printed.code).toBe(0);
    appendFileSync(join(codex.home, 'config.toml'), `\n${codexLines(printed.stdout)}`);

    // Codex starts its MCP servers beside the first model request, which may go out before Tether's tools are listed:
    // the model then runs a harmless command and uses Tether's tools from the request that lists them.
    codex.mock.setScript(({ body }) => {
      const called = (name: string) => body.input?.some((i) => i['type'] === 'function_call' && i['name'] === name);
      if (!body.tools?.some((t) => t['name'] === 'mcp__tether')) {
        return { kind: 'functionCall', name: 'exec_command', arguments: { cmd: 'true' } };
      }
      if (!called('page_click')) {
        return { kind: 'functionCall', namespace: 'mcp__tether', name: 'page_click', arguments: { ref: 'e1' } };
      }
      if (!called('page_read'))
        return { kind: 'functionCall', namespace: 'mcp__tether', name: 'page_read', arguments: {} };
      return { kind: 'text', text: 'The page says hello.' };
    });
    const exec = runCommand(
      codex.bin,
      ['exec', '--strict-config', '--skip-git-repo-check', 'Click the button, then read the page'],
      {
        HOME: privateDir('codex-user-'),
        PATH: process.env['PATH'] ?? '',
        CODEX_HOME: codex.home,
        RUST_LOG: 'error',
      },
      codex.workDir,
    );

    // Codex ending first means it refused or never saw the tool: say what it printed.
    const ended = exec.then((r) => {
      throw new Error(`codex exec ended before calling Tether (exit ${r.code}): ${r.stdout}\n${r.stderr.slice(-3000)}`);
    });
    const toolCall = (tool: string) =>
      Promise.race([h.waitFor((m) => m.method === 'item/tool/call' && m.params.tool === tool, 90_000), ended]);
    const clicked = await toolCall('page_click');
    expect(clicked.params).toMatchObject({
      threadId: 'thr_shared',
      arguments: { ref: 'e1' },
      caller: { kind: 'mcpClient', name: 'codex-mcp-client' },
    });
    h.send({ id: clicked.id, result: { success: true, content: [{ type: 'text', text: 'Clicked button "Go".' }] } });
    const read = await toolCall('page_read');
    const pageText = 'Tether test page: the quick brown fox.';
    h.send({ id: read.id, result: { success: true, content: [{ type: 'text', text: pageText }] } });

    ended.catch(() => undefined);
    const done = await exec;
    expect(done.code, done.stderr.slice(-2000)).toBe(0);
    expect(done.stdout).toContain('The page says hello.');
    const outputs = codex.mock.requests
      .flatMap((r) => (r.body as { input?: Array<Record<string, unknown>> })?.input ?? [])
      .filter((item) => item['type'] === 'function_call_output')
      .map((item) => JSON.stringify(item['output']));
    expect(outputs.some((o) => o.includes('Clicked button'))).toBe(true);
    expect(outputs.some((o) => o.includes(pageText))).toBe(true);
  });
});
