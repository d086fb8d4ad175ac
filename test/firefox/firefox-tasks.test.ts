/**
 * A task across tabs and the developer tools in Firefox ESR, end to end: the add-on, the host it starts, the scripted
 * model's `/tool` calls, and what Firefox offers (tab groups where `tabs.group` exists, the MAIN-world hook,
 * webRequest).
 */
import { createServer } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_TOKEN, SESSION_TOKEN } from '../support/devtools-pages';
import { startFixtureSite } from '../support/fixture-site';
import { type LaunchedFirefox, waitInPage } from './firefox-browser';
import { CONNECTED, toolRunner, useFirefox } from './firefox-panel';

describe('tasks and developer tools in Firefox ESR', () => {
  const launched = useFirefox();
  let firefox: LaunchedFirefox;

  beforeAll(() => {
    firefox = launched();
  });

  it('carries a task across tabs: opens the linked form in a tab of the task, fills it from the brief, closes it', async () => {
    const site = await startFixtureSite();
    try {
      const { tabId: briefTab } = await firefox.openWebPage(site.url('/brief'));
      const panel = await firefox.openExtensionPage(`src/sidepanel/index.html?tab=${briefTab}`);
      await panel.waitForSelector(CONNECTED, { timeout: 30_000 });
      const tool = toolRunner(panel);
      const brief = await tool('page_read', {}, 'allow_session');
      const formUrl = /application form at (\S+)/.exec(brief)?.[1];
      expect(formUrl).toBe(site.otherUrl('/form'));
      const opened = await tool('tabs_open', { url: formUrl, background: true }, 'allow', async (card) =>
        expect(await card.$eval('.origin', (el) => el.textContent)).toBe(site.otherOrigin),
      );
      const formTab = Number(/Opened tab (\d+)/.exec(opened)?.[1]);
      // Firefox 137+ groups tabs; either way the panel lists the task's tabs, the agent on the form.
      await panel.waitForSelector(`.task-tab[data-tab-id="${formTab}"][data-agent-here="true"]`, { timeout: 10_000 });
      const groups = await panel.evaluate(
        async (ids: number[]) => {
          type Tabs = { get(id: number): Promise<{ groupId?: number }>; group?: unknown };
          const tabs = (globalThis as unknown as { browser: { tabs: Tabs } }).browser.tabs;
          if (typeof tabs.group !== 'function') return 'no tab groups';
          return Promise.all(ids.map(async (id) => (await tabs.get(id)).groupId ?? -1));
        },
        [briefTab, formTab],
      );
      // Firefox ESR 153 has tabs.group (137+): the two tabs share a group there, untitled without tabGroups.
      expect(groups).not.toBe('no tab groups');
      if (groups !== 'no tab groups') {
        expect(groups[0]).not.toBe(-1);
        expect(groups[1]).toBe(groups[0]);
      }

      const form = await tool('page_snapshot', { tabId: formTab }, 'allow_session');
      const ref = (role: string, name: string): string => {
        const line = form.split('\n').find((l) => l.includes(`${role} ${JSON.stringify(name)}`));
        const found = line ? /\[ref=(e\d+)\]/.exec(line)?.[1] : undefined;
        if (!found) throw new Error(`No ref for ${role} "${name}" in:\n${form}`);
        return found;
      };
      const fact = (label: string) => new RegExp(`${label}: ([^\\n]+?)(?:\\n|$)`).exec(brief)?.[1]?.trim() ?? '';
      const fields = [
        { ref: ref('textbox', 'Full name'), value: fact('Name') },
        { ref: ref('textbox', 'Email'), value: fact('Email') },
      ];
      expect(await tool('page_fill_form', { fields, tabId: formTab }, 'allow_session')).toContain('Filled 2 fields');
      await tool('page_check', { ref: ref('checkbox', 'I accept the terms'), checked: true });
      await tool('page_click', { ref: ref('button', 'Submit application') });
      const posted = await site.waitForSubmission('/submit');
      expect(posted.origin).toBe(site.otherOrigin);
      expect(posted.fields).toMatchObject({ name: 'Katherine Johnson', email: 'katherine@example.org', terms: 'yes' });

      const { tabId: outside } = await firefox.openWebPage(site.url('/article'));
      expect(await tool('page_read', { tabId: outside })).toContain(`Tab ${outside} is not one of this task's tabs`);
      expect(await tool('tabs_close', { tabId: formTab })).toContain(`Closed tab ${formTab}.`);
      await waitInPage(panel, () => document.querySelectorAll('.task-tabs li.task-tab').length === 1, {
        timeout: 10_000,
      });
      await panel.close();
    } finally {
      await site.close();
    }
  });

  it('reports the console, the failing requests and a fetch response body of a page through the main-world hook and webRequest, secrets masked', async () => {
    const site = await startFixtureSite();
    try {
      // The hook is registered as the background script starts: wait for it, so the page is hooked from its start.
      const probe = await firefox.openExtensionPage('src/options/index.html');
      await waitInPage(
        probe,
        async () => {
          type Scripting = { getRegisteredContentScripts(): Promise<{ id: string; world?: string }[]> };
          const scripting = (globalThis as unknown as { browser: { scripting: Scripting } }).browser.scripting;
          return (await scripting.getRegisteredContentScripts()).some(
            (c) => c.id === 'tether-page-hooks' && c.world === 'MAIN',
          );
        },
        { timeout: 15_000, interval: 200 },
      );
      await probe.close();
      // A port that was free a moment ago and has no listener now: the request to it is refused.
      const server = createServer();
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const address = server.address();
      const dead = typeof address === 'object' && address ? address.port : 0;
      await new Promise<void>((resolve) => server.close(() => resolve()));
      const { page, tabId } = await firefox.openWebPage(site.url(`/console?dead=${dead}`));
      await page.waitForFunction(() => document.getElementById('status')?.textContent?.startsWith('requests over'), {
        timeout: 15_000,
      });
      const panel = await firefox.openExtensionPage(`src/sidepanel/index.html?tab=${tabId}`);
      await panel.waitForSelector(CONNECTED, { timeout: 30_000 });
      const tool = toolRunner(panel);
      const consoleText = await tool('page_console', {}, 'allow_session');
      expect(consoleText).toContain('Recorded since the page loaded.');
      const lines = consoleText.split('\n').filter((l) => /^\[\d+\] (debug|log|info|warn|error) /.test(l));
      for (const [level, text] of [
        ['log', 'fixture log 42'],
        ['info', 'fixture info'],
        ['warn', 'fixture warning: low disk'],
        ['error', 'fixture error'],
        ['debug', 'fixture debug'],
        ['error', 'fixture rejection'],
        ['error', 'fixture uncaught'],
      ] as const) {
        const found = lines.filter((l) => l.includes(text));
        expect(found, `${text} in:\n${consoleText}`).toHaveLength(1);
        expect(found[0]).toMatch(new RegExp(`^\\[\\d+\\] ${level} `));
      }
      const failed = await tool('page_network', { failedOnly: true });
      const requests = failed.split('\n').filter((l) => /^r\d+ /.test(l));
      expect(requests, failed).toHaveLength(2);
      const missing = requests.find((l) => l.includes('/api/missing')) ?? '';
      expect(missing).toMatch(/^r\d+ GET 404 /);
      expect(requests.find((l) => l.includes(`127.0.0.1:${dead}/unreachable`))).toMatch(/ failed \(/);
      const detail = await tool('page_network', { bodyOf: /^(r\d+) /.exec(missing)?.[1] ?? '' });
      expect(detail).toMatch(/Authorization: Bearer \*\*\*/i);
      expect(detail).not.toContain(FIXTURE_TOKEN);
      // The response body of the page's fetch, from the page's main-world hook, its token masked; none for the document.
      const all = await tool('page_network', {});
      const listed = all.split('\n').filter((l) => /^r\d+ /.test(l));
      const session = listed.find((l) => l.includes('/api/session')) ?? '';
      const body = await tool('page_network', { bodyOf: /^(r\d+) /.exec(session)?.[1] ?? '' });
      expect(body).toContain("as the page's scripts received it, from the page's main-world hook");
      expect(body).toContain('"session_token":"***"');
      expect(body).toContain('"roles":["reader","editor"]');
      expect(body).not.toContain(SESSION_TOKEN);
      const documentLine = listed.find((l) => / main_frame /.test(l)) ?? '';
      const documentBody = await tool('page_network', { bodyOf: /^(r\d+) /.exec(documentLine)?.[1] ?? '' });
      expect(documentBody).toContain("not a fetch or XMLHttpRequest of the page's scripts but a main_frame request");
      await panel.close();
      await page.close();
    } finally {
      await site.close();
    }
  });
});
