/** The fixture site itself: two origins, recorded form posts, and pages the size the benchmark expects. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureSite, type FixtureSite } from './fixture-site';

let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(async () => site.close());

const text = async (url: string): Promise<string> => (await fetch(url)).text();

describe('the fixture site', () => {
  it('serves the same pages on two different origins, each pointing its cross-origin frame at the other', async () => {
    expect(site.origin).not.toBe(site.otherOrigin);
    expect(new URL(site.origin).hostname).toBe('127.0.0.1');
    const here = await text(site.url('/frames'));
    const there = await text(site.otherUrl('/frames'));
    expect(here).toContain(`src="${site.otherOrigin}/frame-button"`);
    expect(there).toContain(`src="${site.origin}/frame-button"`);
    expect(await text(site.url('/links'))).toContain(`href="${site.otherOrigin}/partner"`);
  });

  it('records a form POST with its fields and answers with a titled page after a redirect', async () => {
    const body = new URLSearchParams({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      start: '2026-12-24',
      country: 'no',
      plan: 'pro',
      terms: 'yes',
      notes: 'Line one\nline two',
    });
    const waited = site.waitForSubmission('/submit');
    const response = await fetch(site.url('/submit'), { method: 'POST', body });
    expect(response.url).toBe(site.url('/done?path=%2Fsubmit'));
    expect(await response.text()).toContain('<title>Application received</title>');
    const submission = await waited;
    expect(submission).toEqual({
      origin: site.origin,
      path: '/submit',
      entries: [...body],
      fields: Object.fromEntries(body),
    });
    expect(site.submissions()).toContainEqual(submission);
  });

  it('serves a table of 500 rows with a checkbox, Edit and Delete in each, and an article of about 3,000 words', async () => {
    const table = await text(site.url('/table'));
    expect(table.match(/<tr data-id=/g)).toHaveLength(500);
    expect(table.match(/>Delete</g)).toHaveLength(500);
    const article = await text(site.url('/article'));
    const words = article
      .replace(/<script[\s\S]*?<\/script>|<[^>]+>/g, ' ')
      .split(/\s+/)
      .filter(Boolean).length;
    expect(words).toBeGreaterThan(2_800);
    expect(words).toBeLessThan(3_600);
    expect(article.match(/<section id="s\d">/g)).toHaveLength(6);
  });

  it('answers 404 for an unknown page and 204 for the favicon', async () => {
    expect((await fetch(site.url('/nope'))).status).toBe(404);
    expect((await fetch(site.url('/favicon.ico'))).status).toBe(204);
  });
});
