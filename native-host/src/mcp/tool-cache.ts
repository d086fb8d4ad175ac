/**
 * The extension's page tools as the last host saw them, kept on disk for `tether mcp`: with the browser closed it
 * still answers `tools/list` with them, so a client that starts before the browser knows Tether's tools (and learns
 * of a change through `notifications/tools/list_changed` once a host answers). The file holds an MCP `tools/list`
 * result, `{"tools":[...]}`; it says nothing secret, but lives with Tether's data: 0600 in a 0700 folder. The host
 * writes it without the SDK (its start-up path never loads it); `tether mcp` parses it with the SDK's schema.
 */
import { readFileSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { errorMessage } from '@tether/protocol/errors';
import { type PathEnv, dataDir } from '../paths';
import { PRIVATE_FILE_MODE, ensurePrivateDir } from '../private-files';
import type { McpTool } from './tools';

/** Where the tool list is kept: `mcp-tools.json` in Tether's data folder. */
export function toolCacheFile(options?: PathEnv): string {
  return join(dataDir(options), 'mcp-tools.json');
}

/**
 * Saves `tools` to `file` unless it already holds exactly them (a host starts on every browser connection) or the
 * list is empty (an extension that declares none says nothing about the tools). Never throws: a failure is logged.
 */
export async function saveToolCache(
  file: string,
  tools: readonly McpTool[],
  log: (line: string) => void,
): Promise<void> {
  if (tools.length === 0) return;
  const text = `${JSON.stringify({ tools })}\n`;
  try {
    if ((await readFile(file, 'utf8').catch(() => undefined)) === text) return;
    ensurePrivateDir(dirname(file), log);
    const temp = `${file}.tmp-${process.pid}`;
    await writeFile(temp, text, { mode: PRIVATE_FILE_MODE });
    await rename(temp, file);
  } catch (error) {
    log(`mcp: cannot save the tool list for tether mcp in ${file}: ${errorMessage(error)}`);
  }
}

/** The saved file's JSON, or undefined when there is none or it is not JSON (the caller checks its shape). */
export function readToolCache(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}
