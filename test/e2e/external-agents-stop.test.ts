/**
 * External MCP clients that stop waiting, and grants that stay with the client they were given to, end to end:
 * Chromium with the extension, the host it started, and MCP SDK clients that spawn `tether mcp`. A card whose caller
 * cancelled or went away is withdrawn, the panel says so, and answering it afterwards is refused with the page left
 * untouched (the fixture site records every form POST a click would send).
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBrowserSuite } from '../support/browser-suite';
import { openConnectedPanel, shareTab } from '../support/extension-pages';
import { type FixtureSite, startFixtureSite } from '../support/fixture-site';
import { tetherMcpClients, toolText, untilListed } from '../support/mcp-clients';

const runtime = mkdtempSync(join(tmpdir(), 'tether-runtime-'));
let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(async () => {
  await site?.close();
});
// Registered after the afterAll above, so its clients close first, as they did before the site.
const connect = tetherMcpClients(runtime);

/** An MCP client named `name` that spawns `tether mcp` (PATH and the runtime folder only), once it sees the tools. */
async function externalClient(name: string): Promise<Client> {
  const client = await connect(name);
  await untilListed(client, 'page_click', 20_000);
  return client;
}

/** Shares the panel's tab with external agents, by the user's clicks. */
async function share(panel: Page): Promise<void> {
  await shareTab(panel);
  await expect.poll(() => panel.locator('.share').getAttribute('data-shared')).toBe('true');
}

/** The ref the snapshot gives the "Post comment" button, read through `client` (allowed once in the panel). */
async function postCommentRef(client: Client, panel: Page): Promise<string> {
  const snapshotting = client.callTool({ name: 'page_snapshot', arguments: {} });
  const allow = panel.locator('.approval[data-tool="page_snapshot"] button[data-choice="allow"]');
  // A call answered without a card fails here with its answer, not with a locator timeout that hides why.
  const first = await Promise.race([allow.waitFor({ timeout: 30_000 }).then(() => 'card' as const), snapshotting]);
  if (first !== 'card')
    throw new Error(
      `page_snapshot answered before its card showed: ${toolText(first)} (hosts announced: ${readdirSync(runtime).join(', ')})`,
    );
  await allow.click();
  const snapshot = toolText(await snapshotting);
  const ref = /button "Post comment".*?\[ref=(e\d+)\]/.exec(snapshot)?.[1];
  expect(ref, snapshot).toBeDefined();
  return ref!;
}

/**
 * Decides approval `key` as a late click would: the panel's own message to the worker (`approval/decide`, "Allow
 * once"), sent from the panel page after the card was withdrawn. Resolves with the worker's answer.
 */
function lateAllow(panel: Page, tabId: number, key: string): Promise<string> {
  return panel.evaluate(
    ({ tabId, key }) =>
      new Promise<string>((resolve) => {
        type Port = {
          onMessage: { addListener(f: (m: { type: string; id?: number; error?: { message: string } }) => void): void };
          postMessage(m: unknown): void;
          disconnect(): void;
        };
        const runtime = (globalThis as unknown as { chrome: { runtime: { connect(o: object): Port } } }).chrome.runtime;
        const port = runtime.connect({ name: 'tether-view' });
        port.onMessage.addListener((m) => {
          if (m.id !== 1) return;
          resolve(m.type === 'error' ? `refused: ${m.error?.message}` : 'accepted');
          port.disconnect();
        });
        port.postMessage({ type: 'hello', view: 'sidepanel', tabId });
        port.postMessage({ type: 'call', id: 1, op: 'approval/decide', params: { key, choice: 'allow' } });
      }),
    { tabId, key },
  );
}

const transcript = (panel: Page) => panel.locator('.transcript').textContent();

describe('external clients that stop waiting (Chromium)', () => {
  const suite = useBrowserSuite({ env: { TETHER_RUNTIME_DIR: runtime } });

  it('withdraws the card of a call the client aborted or gave up on, and a late "Allow once" clicks nothing', async () => {
    const { panel, tabId } = await openConnectedPanel(suite.browser, site.url('/article'));
    const client = await externalClient('mcp-inspector');
    await share(panel);
    const ref = await postCommentRef(client, panel);

    // The client aborts the call (as Claude Code does on Esc) while the card waits.
    const stop = new AbortController();
    const clicking = client.callTool({ name: 'page_click', arguments: { ref } }, undefined, { signal: stop.signal });
    const card = panel.locator('.approval[data-tool="page_click"]');
    await card.waitFor({ timeout: 30_000 });
    const key = (await card.getAttribute('data-approval-key'))!;
    stop.abort();
    await expect(clicking).rejects.toThrow();
    await card.waitFor({ state: 'detached', timeout: 10_000 });
    await expect
      .poll(() => transcript(panel), { timeout: 10_000 })
      .toContain('mcp-inspector (its own name for itself) stopped waiting for page_click (it cancelled the call)');
    expect(await lateAllow(panel, tabId, key)).toMatch(/^refused: This approval is no longer pending/);

    // A client whose own timeout ends the call (the SDK's request timeout, Codex's tool_timeout_sec) alike.
    const timingOut = client.callTool({ name: 'page_click', arguments: { ref } }, undefined, { timeout: 3_000 });
    await card.waitFor({ timeout: 30_000 });
    const timedOutKey = (await card.getAttribute('data-approval-key'))!;
    await expect(timingOut).rejects.toThrow(/timed out/i);
    await card.waitFor({ state: 'detached', timeout: 10_000 });
    expect(await lateAllow(panel, tabId, timedOutKey)).toMatch(/^refused:/);

    await new Promise((r) => setTimeout(r, 1000));
    expect(site.submissions().filter((s) => s.path === '/comment')).toEqual([]);
    expect(await transcript(panel)).not.toContain('ran page_click');
    await panel.close();
  });

  it('withdraws the card when the client exits mid-call, and a late "Allow once" clicks nothing', async () => {
    const { panel, tabId } = await openConnectedPanel(suite.browser, site.url('/article'));
    const client = await externalClient('claude-code');
    await share(panel);
    const ref = await postCommentRef(client, panel);

    void client.callTool({ name: 'page_click', arguments: { ref } }).catch(() => undefined);
    const card = panel.locator('.approval[data-tool="page_click"]');
    await card.waitFor({ timeout: 30_000 });
    const key = (await card.getAttribute('data-approval-key'))!;
    // Closing the client ends its `tether mcp` process, as a client that exits does.
    await client.close();
    await card.waitFor({ state: 'detached', timeout: 15_000 });
    await expect
      .poll(() => transcript(panel), { timeout: 10_000 })
      .toContain('claude-code (its own name for itself) stopped waiting for page_click (it disconnected)');
    expect(await lateAllow(panel, tabId, key)).toMatch(/^refused: This approval is no longer pending/);

    await new Promise((r) => setTimeout(r, 1000));
    expect(site.submissions().filter((s) => s.path === '/comment')).toEqual([]);
    await panel.close();
  });

  it('keeps a thread grant given on one client’s card for that client: another client on the same tab still asks', async () => {
    const { panel } = await openConnectedPanel(suite.browser, site.url('/article'));
    const inspector = await externalClient('mcp-inspector');
    const claude = await externalClient('claude-code');
    await share(panel);

    const first = inspector.callTool({ name: 'page_read', arguments: {} });
    const card = panel.locator('.approval[data-tool="page_read"]');
    await card.waitFor({ timeout: 30_000 });
    const grant = card.locator('button[data-choice="allow_session"]');
    expect(await grant.textContent()).toBe(`Allow reading ${site.origin} for mcp-inspector, this connection only`);
    // A client's card sets no site rule: those cover every client, and only the options page lists them.
    expect(await card.locator('button[data-choice="always_allow_site"]').count()).toBe(0);
    await grant.click();
    expect(toolText(await first)).toContain('Canals of the north');

    // The same client reads again without a card...
    const again = await inspector.callTool({ name: 'page_read', arguments: {} });
    expect(again.isError).toBeFalsy();
    // ...while another client on the same tab is asked.
    const other = claude.callTool({ name: 'page_read', arguments: {} });
    await card.waitFor({ timeout: 30_000 });
    expect(await card.locator('.caller').textContent()).toBe('claude-code 1.0.0');
    await card.locator('button[data-choice="deny"]').click();
    const denied = await other;
    expect(denied.isError).toBe(true);
    expect(toolText(denied)).toContain('did not allow');
    await panel.close();
  });
});
