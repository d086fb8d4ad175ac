import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readToolCache, saveToolCache, toolCacheFile } from './tool-cache';
import { mcpTools } from './tools';

const tools = mcpTools([{ name: 'page_read', description: 'Reads the page.', inputSchema: { type: 'object' } }]);

describe('the saved tool list', () => {
  it('lives in the data folder, which a client passing only HOME finds too', () => {
    expect(toolCacheFile({ platform: 'linux', env: {}, homedir: '/home/ada' })).toBe(
      '/home/ada/.local/share/tether/mcp-tools.json',
    );
  });

  it('is written 0600 in a 0700 folder, as an MCP tools/list result', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'tether-cache-')), 'data', 'tether', 'mcp-tools.json');
    await saveToolCache(file, tools, () => undefined);
    expect(readToolCache(file)).toEqual({ tools });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(file, '..')).mode & 0o777).toBe(0o700);
  });

  it('is left alone when it holds the same tools, and never replaced by an empty list', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'tether-cache-')), 'mcp-tools.json');
    await saveToolCache(file, tools, () => undefined);
    const written = statSync(file).mtimeMs;
    await new Promise((r) => setTimeout(r, 20));
    await saveToolCache(file, tools, () => undefined);
    await saveToolCache(file, [], () => undefined);
    expect(statSync(file).mtimeMs).toBe(written);
    expect(readToolCache(file)).toEqual({ tools });
  });

  it('reads as undefined when missing or not JSON', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tether-cache-'));
    writeFileSync(join(dir, 'bad.json'), '{not json');
    expect(readToolCache(join(dir, 'missing.json'))).toBeUndefined();
    expect(readToolCache(join(dir, 'bad.json'))).toBeUndefined();
  });
});
