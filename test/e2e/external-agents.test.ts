/**
 * An agent outside the browser uses a tab the user shared, end to end: Chromium with the extension, the host it
 * started, and an MCP client on @modelcontextprotocol/sdk that spawns `tether mcp`, as Claude Code or Cursor would.
 * Every call asks in the shared tab's side panel, naming the client by its own claim.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBrowserSuite } from '../support/browser-suite';
import { openConnectedPanel, shareTab } from '../support/extension-pages';
import { tetherMcpClients, toolText, untilListed } from '../support/mcp-clients';

// The folder where the browser's host announces itself and `tether mcp` finds it: private to this file.
const runtime = mkdtempSync(join(tmpdir(), 'tether-runtime-'));
const connect = tetherMcpClients(runtime);

describe('external agents on a shared tab (Chromium)', () => {
  const suite = useBrowserSuite({ env: { TETHER_RUNTIME_DIR: runtime } });

  it('refuses calls until the user shares the tab, then asks in its panel naming the client, and reads the page', async () => {
    const { panel } = await openConnectedPanel(suite.browser, suite.demo.url('/'));
    // tether mcp answers at once; it reaches the host once the host has opened its socket, shortly after it starts.
    const client = await connect('claude-code', { version: '9.9.9' });
    await untilListed(client, 'page_read');
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['page_snapshot', 'page_click', 'page_read']),
    );

    const unshared = await client.callTool({ name: 'page_read', arguments: {} });
    expect(unshared.isError).toBe(true);
    expect(toolText(unshared)).toMatch(/[Ss]hare/);

    // Sharing is used rarely: the toggle is one click away, not above every conversation.
    expect(await panel.locator('input[name="share-tab"]').count()).toBe(0);
    // Sharing is the user's own click in the panel; the panel then names the client that is connected.
    await shareTab(panel);
    const status = panel.locator('.share .share-status');
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toContain('claude-code 9.9.9');
    // While the tab is shared, it stays in view with its clients even when the Share button is clicked again.
    await panel.locator('button[data-action="share"]').click();
    expect(await status.isVisible()).toBe(true);

    const reading = client.callTool({ name: 'page_read', arguments: {} });
    const card = panel.locator('.approval[data-tool="page_read"]');
    await card.waitFor({ timeout: 30_000 });
    expect(await card.locator('.caller').textContent()).toBe('claude-code 9.9.9');
    expect(await card.textContent()).toContain('the name is its own claim');
    await card.locator('button[data-choice="allow"]').click();
    const read = await reading;
    expect(read.isError).toBeFalsy();
    expect(toolText(read)).toContain('North Sea');
    // The transcript says what the outside agent did.
    await expect
      .poll(() => panel.locator('.transcript').textContent(), { timeout: 10_000 })
      .toContain('claude-code (its own name for itself) ran page_read');

    // A denial reaches the client as a tool error, and no page action ran.
    const snapshotting = client.callTool({ name: 'page_snapshot', arguments: {} });
    await panel.locator('.approval[data-tool="page_snapshot"] button[data-choice="deny"]').click({ timeout: 30_000 });
    const denied = await snapshotting;
    expect(denied.isError).toBe(true);
    expect(toolText(denied)).toContain('did not allow');

    // Unsharing stops it again.
    await panel.locator('input[name="share-tab"]').uncheck();
    await expect.poll(() => panel.locator('.share').getAttribute('data-shared')).toBe('false');
    const after = await client.callTool({ name: 'page_read', arguments: {} });
    expect(after.isError).toBe(true);
    await panel.close();
  });
});
