/**
 * A task across tabs in real Chromium: the agent opens the form linked from a brief in a second tab (tabs_open), reads
 * both, fills the form from the brief's facts, sends it and closes the tab, through the side panel's approvals. Driven
 * by the scripted model's `/tool` commands and by an OpenAI-compatible model whose planner reads the results.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBrowserSuite, useModelBrowserSuite } from '../support/browser-suite';
import type { LaunchedBrowser } from '../support/browser';
import {
  completedAnswers,
  openConnectedPanel,
  openSidePanel,
  openWebPage,
  sendPrompt,
  tabIdOf,
} from '../support/extension-pages';
import { startFixtureSite, type FixtureSite } from '../support/fixture-site';
import { type ChatScript, contentText } from '../support/mock-chat-completions';
import { card, choose, refOf, tool } from '../support/page-tool-calls';
import { BRIEF_FACTS } from '../support/task-pages';
import { HOST_ENTRY } from '../host/host-process';

// The folder where the browser's host announces itself and `tether mcp` finds it: private to this file.
const runtime = mkdtempSync(join(tmpdir(), 'tether-runtime-'));
let site: FixtureSite;
const clients: Client[] = [];
beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await site?.close();
});

/** The text of an MCP tool result. */
function resultText(result: Awaited<ReturnType<Client['callTool']>>): string {
  const content = Array.isArray(result.content) ? result.content : [];
  return content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

/** The tab id a tabs_open result names. */
function openedTab(result: string): number {
  const id = /Opened tab (\d+)/.exec(result)?.[1];
  if (!id) throw new Error(`No tab was opened:\n${result}`);
  return Number(id);
}

/** The part of chrome.* these checks call in the service worker (the tests are built without the extension's types). */
interface ChromeTabs {
  tabs: { get(id: number): Promise<{ groupId: number }>; query(q: object): Promise<Array<{ id?: number }>> };
  tabGroups: { get(id: number): Promise<{ title?: string }> };
}

/** Every tab of the browser tab group that holds `tabId` (none when it is in no group), and the group's title. */
async function groupOf(browser: LaunchedBrowser, tabId: number) {
  const worker = await browser.serviceWorker();
  return worker.evaluate(async (id) => {
    const chrome = (globalThis as unknown as { chrome: ChromeTabs }).chrome;
    const tab = await chrome.tabs.get(id);
    if (tab.groupId === -1) return { members: [] as number[], title: undefined };
    const members = (await chrome.tabs.query({ groupId: tab.groupId })).map((t) => t.id ?? -1).sort((a, b) => a - b);
    return { members, title: (await chrome.tabGroups.get(tab.groupId)).title };
  }, tabId);
}

/** Waits for the card of `toolName` and returns what it says: origin, tab named, question. */
async function cardFacts(panel: Page, toolName: string) {
  const c = card(panel, toolName);
  await c.waitFor({ timeout: 30_000 });
  return {
    origin: await c.locator('.asker .origin').textContent(),
    tab: (await c.locator('.asker .tab').count()) > 0 ? await c.locator('.asker .tab').textContent() : undefined,
    question: await c.locator('.question').textContent(),
  };
}

describe('a task across tabs (Chromium, /tool commands)', () => {
  const suite = useBrowserSuite({ env: { TETHER_RUNTIME_DIR: runtime } });

  it('opens the linked form in a second tab, fills it from the brief, closes it; other tabs stay out of reach', async () => {
    const { tabId: briefTab, panel } = await openConnectedPanel(suite.browser, site.url('/brief'));
    const brief = await tool(panel, 'page_read', {}, choose('page_read', 'allow_session'));
    const formUrl = /Apply with the application form at (\S+)/.exec(brief)?.[1];
    expect(formUrl).toBe(site.otherUrl('/form'));

    // Opening is decided for where it leads, like page_navigate.
    await sendPrompt(panel, `/tool tabs_open ${JSON.stringify({ url: formUrl })}`);
    expect(await cardFacts(panel, 'tabs_open')).toEqual({
      origin: site.otherOrigin,
      tab: undefined,
      question: 'Let the agent open a page in a new tab?',
    });
    await choose('tabs_open', 'allow')(panel);
    await expect.poll(() => completedAnswers(panel).count(), { timeout: 30_000 }).toBe(2);
    const formTab = openedTab((await completedAnswers(panel).last().textContent()) ?? '');

    // The group holds exactly the task's tabs, titled after the thread; the panel lists them, the agent on the form.
    await expect.poll(async () => (await groupOf(suite.browser, formTab)).members).toEqual([briefTab, formTab]);
    expect((await groupOf(suite.browser, briefTab)).title).toMatch(/^Tether: /);
    const listed = panel.locator('.task-tabs li.task-tab');
    await expect.poll(() => listed.count()).toBe(2);
    expect(await panel.locator(`.task-tab[data-tab-id="${formTab}"]`).getAttribute('data-agent-here')).toBe('true');
    // The opened tab's own panel says where the conversation is.
    const formPanel = await openSidePanel(suite.browser, formTab);
    await expect
      .poll(() => formPanel.locator('.task-member-note').textContent(), { timeout: 10_000 })
      .toContain('“Applicant brief”');

    // The form's card names its origin and the tab, which is not the conversation's; it shows in the form tab's own
    // panel too, where the user now is, and is answered there without switching back to the brief.
    await sendPrompt(panel, '/tool page_snapshot {}');
    expect(await cardFacts(panel, 'page_snapshot')).toEqual({
      origin: site.otherOrigin,
      tab: '“Application form”',
      question: `Let the agent read ${site.otherOrigin}?`,
    });
    expect((await cardFacts(formPanel, 'page_snapshot')).origin).toBe(site.otherOrigin);
    // Once: reading the other site stays asked, so the tab the user adds later gets a card of its own.
    await choose('page_snapshot', 'allow')(formPanel);
    await formPanel.close();
    await expect.poll(() => completedAnswers(panel).count(), { timeout: 30_000 }).toBe(3);
    const form = (await completedAnswers(panel).last().locator('.body').textContent()) ?? '';

    // The brief's tab is read again without switching to it, under the grant on its own site.
    const again = await tool(panel, 'page_read', { tabId: briefTab });
    expect(again).toContain(BRIEF_FACTS.email);

    const fill = {
      fields: [
        { ref: refOf(form, 'textbox', 'Full name'), value: BRIEF_FACTS.name },
        { ref: refOf(form, 'textbox', 'Email'), value: BRIEF_FACTS.email },
        { ref: refOf(form, 'textbox', 'Start date'), value: BRIEF_FACTS.start },
      ],
      tabId: formTab,
    };
    await sendPrompt(panel, `/tool page_fill_form ${JSON.stringify(fill)}`);
    const fillCard = await cardFacts(panel, 'page_fill_form');
    expect(fillCard.origin).toBe(site.otherOrigin);
    expect(fillCard.tab).toBe('“Application form”');
    await choose('page_fill_form', 'allow_session')(panel);
    await expect.poll(() => completedAnswers(panel).count(), { timeout: 30_000 }).toBe(5);
    const terms = refOf(form, 'checkbox', 'I accept the terms');
    await tool(panel, 'page_check', { ref: terms, checked: true });
    await tool(panel, 'page_click', { ref: refOf(form, 'button', 'Submit application') });
    const sent = await site.waitForSubmission('/submit');
    expect(sent.origin).toBe(site.otherOrigin);
    expect(sent.fields).toMatchObject({ ...BRIEF_FACTS, terms: 'yes' });

    // A tab outside the task is refused before anything is asked, in words that say what to do.
    const { tabId: outside } = await openWebPage(suite.browser, site.otherUrl('/article'));
    const refused = await tool(panel, 'page_read', { tabId: outside });
    expect(refused).toContain(`Tab ${outside} is not one of this task's tabs`);
    expect(refused).toContain('tabs_list');
    // Asked on the site of the tab the agent is on, which reads were allowed there only once.
    const list = await tool(panel, 'tabs_list', {}, choose('tabs_list', 'allow'));
    expect(list).toContain(`"id": ${outside}`);
    expect(list).toMatch(new RegExp(`"id": ${formTab},[^}]*"inTask": true,[^}]*"agentIsHere": true`));
    // The conversation's own tab is not the agent's to close.
    expect(await tool(panel, 'tabs_close', { tabId: briefTab })).toContain('not opened by the agent');

    // The user adds the outside tab from the panel; the agent may then use it (asked on its own site), then not again.
    await panel.locator('[data-action="task-pick"]').click();
    await panel.locator(`.task-tab[data-tab-id="${outside}"] [data-action="task-add"]`).click();
    await expect.poll(() => listed.count()).toBe(3);
    await sendPrompt(panel, `/tool page_read ${JSON.stringify({ tabId: outside })}`);
    expect((await cardFacts(panel, 'page_read')).tab).toBe('“Canals of the north: a short history”');
    await choose('page_read', 'allow')(panel);
    await expect
      .poll(async () => (await completedAnswers(panel).last().textContent()) ?? '', { timeout: 30_000 })
      .toContain('Canals of the north');
    await panel.locator(`.task-tab[data-tab-id="${outside}"] [data-action="task-remove"]`).click();
    await expect.poll(() => listed.count()).toBe(2);
    expect(await tool(panel, 'page_read', { tabId: outside })).toContain('is not one of this task');

    const closed = await tool(panel, 'tabs_close', { tabId: formTab });
    expect(closed).toContain(`Closed tab ${formTab}.`);
    const worker = await suite.browser.serviceWorker();
    const state = await worker.evaluate(async (id) => {
      const chrome = (globalThis as unknown as { chrome: ChromeTabs }).chrome;
      return chrome.tabs.get(id).then(
        () => 'open',
        () => 'closed',
      );
    }, formTab);
    expect(state).toBe('closed');
    await expect.poll(() => listed.count()).toBe(1);
    await panel.close();
  });

  it('lets an external MCP client open, read, read the console of and close a tab of the task of a shared tab, each step on its card', async () => {
    const { panel } = await openConnectedPanel(suite.browser, site.url('/brief'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [HOST_ENTRY, 'mcp'],
      env: { PATH: process.env['PATH'] ?? '', TETHER_RUNTIME_DIR: runtime },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'tabs-client', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    await expect
      .poll(async () => (await client.listTools()).tools.map((t) => t.name), { timeout: 15_000, interval: 300 })
      .toContain('tabs_open');
    await panel.locator('button[data-action="share"]').click();
    await panel.locator('input[name="share-tab"]').check();
    await expect
      .poll(() => panel.locator('.share .share-status').textContent(), { timeout: 10_000 })
      .toContain('tabs-client');

    const opening = client.callTool({
      name: 'tabs_open',
      arguments: { url: site.otherUrl('/form'), background: true },
    });
    const openCard = card(panel, 'tabs_open');
    await openCard.waitFor({ timeout: 30_000 });
    expect(await openCard.locator('.caller').textContent()).toContain('tabs-client');
    expect(await openCard.locator('.origin').textContent()).toBe(site.otherOrigin);
    await openCard.locator('button[data-choice="allow"]').click();
    const formTab = openedTab(resultText(await opening));

    const reading = client.callTool({ name: 'page_read', arguments: { tabId: formTab } });
    const readCard = card(panel, 'page_read');
    await readCard.waitFor({ timeout: 30_000 });
    expect(await readCard.locator('.origin').textContent()).toBe(site.otherOrigin);
    expect(await readCard.locator('.tab').textContent()).toBe('“Application form”');
    await readCard.locator('button[data-choice="allow"]').click();
    expect(resultText(await reading)).toContain('Application form');

    // A developer's client reads the opened tab's console without switching to it, approved as reading that site.
    const consoleRead = client.callTool({ name: 'page_console', arguments: { tabId: formTab } });
    const consoleCard = card(panel, 'page_console');
    await consoleCard.waitFor({ timeout: 30_000 });
    expect(await consoleCard.locator('.origin').textContent()).toBe(site.otherOrigin);
    await consoleCard.locator('button[data-choice="allow"]').click();
    expect(resultText(await consoleRead)).toContain(`Console of ${site.otherUrl('/form')}`);

    const closing = client.callTool({ name: 'tabs_close', arguments: { tabId: formTab } });
    await card(panel, 'tabs_close').locator('button[data-choice="allow"]').click({ timeout: 30_000 });
    expect(resultText(await closing)).toContain(`Closed tab ${formTab}.`);
    await panel.close();
  });

  it("keeps a task's tabs across a service-worker restart", async () => {
    const { panel } = await openConnectedPanel(suite.browser, site.url('/brief'));
    await sendPrompt(panel, `/tool tabs_open ${JSON.stringify({ url: site.otherUrl('/form'), background: true })}`);
    await choose('tabs_open', 'allow')(panel);
    await expect.poll(() => completedAnswers(panel).count(), { timeout: 30_000 }).toBe(1);
    const formTab = openedTab((await completedAnswers(panel).last().textContent()) ?? '');
    await suite.browser.stopServiceWorkers();
    await panel.reload();
    await panel.locator('.banner[data-status="connected"]').waitFor({ timeout: 30_000 });
    // The reloaded panel shows the conversation again; counting the next answer starts from there (connected comes
    // before the transcript is restored).
    await expect.poll(() => completedAnswers(panel).count(), { timeout: 30_000 }).toBe(1);
    // The page tools still act on the opened tab, in the background, without being told again.
    const read = await tool(panel, 'page_read', {}, choose('page_read', 'allow'));
    expect(read).toContain('Application form');
    expect(await panel.locator(`.task-tab[data-tab-id="${formTab}"]`).getAttribute('data-agent-here')).toBe('true');
    // A screenshot is the one thing the browser takes only of the tab in front: it says so and brings nothing forward.
    const shot = await tool(panel, 'page_screenshot', {}, choose('page_screenshot', 'allow'));
    expect(shot).toContain(`tab ${formTab} is in the background`);
    expect(shot).toContain('page_snapshot and page_read work on background tabs');
    await panel.close();
  });

  it('adds a tab to the task from its own popup ("Add this tab to the task") and takes it out there', async () => {
    const { panel } = await openConnectedPanel(suite.browser, site.url('/brief'));
    // A conversation starts with its first message: only then is there a task to join.
    await sendPrompt(panel, 'Hello');
    await expect.poll(() => completedAnswers(panel).count(), { timeout: 30_000 }).toBe(1);
    const { page: formPage, tabId: formTab } = await openWebPage(suite.browser, site.otherUrl('/form?from=popup'));
    const popup = await suite.browser.openExtensionPage(`src/popup/index.html?tab=${formTab}`);
    // Earlier tests left their conversations' brief tabs in this window: this conversation's tab is the newest.
    const joins = popup.locator('button[data-action="task-join"]');
    const join = joins.last();
    await expect
      .poll(() => join.textContent(), { timeout: 10_000 })
      .toBe('Add this tab to the task of “Applicant brief”');
    await join.click();
    await expect
      .poll(() => panel.locator(`.task-tab[data-tab-id="${formTab}"] .task-tab-role`).textContent())
      .toBe('added by you');
    const leave = popup.locator('button[data-action="task-leave"]');
    await expect.poll(() => leave.textContent()).toBe('Take this tab out of the task of “Applicant brief”');
    await leave.click();
    await expect.poll(() => panel.locator(`.task-tab[data-tab-id="${formTab}"]`).count()).toBe(0);
    await expect.poll(() => joins.count()).toBeGreaterThan(0);
    await popup.close();
    await formPage.close();
    await panel.close();
  });

  it('takes the tab a link opens when the agent clicks it into the task, so the agent reads it without the user', async () => {
    const { panel } = await openConnectedPanel(suite.browser, site.url('/brief'));
    const snapshot = await tool(panel, 'page_snapshot', {}, choose('page_snapshot', 'allow_session'));
    // The brief's link opens the form in a new tab (target=_blank): the click is the agent's, so is the tab.
    const clicked = await tool(
      panel,
      'page_click',
      { ref: refOf(snapshot, 'link', 'application form') },
      choose('page_click', 'allow'),
    );
    const formTab = Number(/This action opened tab (\d+), which joined this task/.exec(clicked)?.[1]);
    expect(formTab).toBeGreaterThan(0);
    await expect.poll(() => panel.locator('.task-tabs li.task-tab').count()).toBe(2);
    expect(await panel.locator(`.task-tab[data-tab-id="${formTab}"] .task-tab-role`).textContent()).toBe(
      'opened by the agent',
    );
    const read = await tool(panel, 'page_read', { tabId: formTab }, choose('page_read', 'allow'));
    expect(read).toContain('Application form');
    expect(await tool(panel, 'tabs_close', { tabId: formTab }, choose('tabs_close', 'allow'))).toContain(
      `Closed tab ${formTab}.`,
    );
    await panel.close();
  });

  it("leaves out a tab the user opens from the task's page while no agent action runs", async () => {
    const { page, panel } = await openConnectedPanel(suite.browser, site.url('/brief'));
    await tool(panel, 'page_snapshot', {}, choose('page_snapshot', 'allow_session'));
    // The user's own click on the same target=_blank link the agent clicks above: the page opens the form's tab.
    const [formPage] = await Promise.all([suite.browser.context.waitForEvent('page'), page.click('#form-link')]);
    await formPage.waitForLoadState();
    const formTab = await tabIdOf(suite.browser, site.otherUrl('/form'));
    // The browser told the worker long before this call (it does before the tab navigates): the tab stayed out.
    // Listing is a read on the brief's site, allowed for the session above.
    const list = await tool(panel, 'tabs_list', {});
    expect(list).toMatch(new RegExp(`"id": ${formTab},[^}]*"inTask": false`));
    expect(await panel.locator(`.task-tab[data-tab-id="${formTab}"]`).count()).toBe(0);
    expect(await tool(panel, 'page_read', { tabId: formTab })).toContain(
      `Tab ${formTab} is not one of this task's tabs`,
    );
    await formPage.close();
    await panel.close();
  });
});

/**
 * A planner standing in for a real model: it reads the brief, opens the form it links to, reads the form's snapshot,
 * fills it with the brief's facts and sends it, closes the tab, one tool call per request.
 */
function taskPlanner(): ChatScript {
  return ({ body }) => {
    const messages = body.messages ?? [];
    const results = messages.filter((m) => m.role === 'tool').map((m) => contentText(m.content));
    const [brief = '', opened = '', form = ''] = results;
    const fact = (label: string) => new RegExp(`(?:^|\\n)${label}: ([^\\n]+)`).exec(brief)?.[1]?.trim() ?? '';
    const formTab = Number(/Opened tab (\d+)/.exec(opened)?.[1] ?? -1);
    const steps: Array<() => [string, Record<string, unknown>]> = [
      () => ['page_read', {}],
      () => ['tabs_open', { url: /application form at (\S+)/.exec(brief)?.[1] ?? '' }],
      () => ['page_snapshot', {}],
      () => [
        'page_fill_form',
        {
          fields: [
            { ref: refOf(form, 'textbox', 'Full name'), value: fact('Name') },
            { ref: refOf(form, 'textbox', 'Email'), value: fact('Email') },
            { ref: refOf(form, 'textbox', 'Start date'), value: fact('Start date') },
          ],
        },
      ],
      () => ['page_check', { ref: refOf(form, 'checkbox', 'I accept the terms'), checked: true, tabId: formTab }],
      () => ['page_click', { ref: refOf(form, 'button', 'Submit application') }],
      () => ['tabs_close', { tabId: formTab }],
    ];
    const step = steps[results.length];
    if (!step) return { kind: 'text', text: `Applied and closed the form's tab. ${results.at(-1) ?? ''}` };
    const [name, args] = step();
    return { kind: 'toolCall', name, arguments: args };
  };
}

describe('a task across tabs driven by an OpenAI-compatible model (Chromium)', () => {
  const suite = useModelBrowserSuite(taskPlanner());

  it('carries the brief to the form in a tab it opens and closes, each step approved on its own site', async () => {
    const { tabId: briefTab, panel } = await openConnectedPanel(suite.browser, site.url('/brief'));
    const earlier = site.submissions().length;
    await sendPrompt(panel, 'Apply for the applicant in this brief with the form it links to, then close the form.');
    expect((await cardFacts(panel, 'page_read')).origin).toBe(site.origin);
    await choose('page_read', 'allow')(panel);
    expect((await cardFacts(panel, 'tabs_open')).origin).toBe(site.otherOrigin);
    await choose('tabs_open', 'allow')(panel);
    expect(await cardFacts(panel, 'page_snapshot')).toMatchObject({
      origin: site.otherOrigin,
      tab: '“Application form”',
    });
    await choose('page_snapshot', 'allow')(panel);
    expect(await cardFacts(panel, 'page_fill_form')).toMatchObject({ origin: site.otherOrigin });
    await choose('page_fill_form', 'allow_session')(panel);
    const sent = () =>
      site
        .submissions()
        .slice(earlier)
        .find((s) => s.path === '/submit');
    await expect.poll(sent, { timeout: 30_000 }).toBeDefined();
    expect(sent()?.origin).toBe(site.otherOrigin);
    expect(sent()?.fields).toMatchObject({ ...BRIEF_FACTS, terms: 'yes' });
    await expect.poll(() => completedAnswers(panel).count(), { timeout: 30_000 }).toBe(1);
    expect(await completedAnswers(panel).last().textContent()).toContain('Applied and closed');
    // Only the conversation's tab is left in its task, and no group holds it alone.
    expect(await panel.locator('.task-tabs li.task-tab').count()).toBe(1);
    expect((await groupOf(suite.browser, briefTab)).members).toEqual([]);
    await panel.close();
  });
});
