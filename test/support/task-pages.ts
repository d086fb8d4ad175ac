/**
 * Fixture pages for a task across tabs (fixture-site.ts serves them with the others): a brief whose facts the agent
 * must carry to the application form on the site's other origin, linked from the brief (opening in a new tab).
 */
import type { PageContext } from './fixture-pages';

/** The applicant the brief names: what the form must receive. */
export const BRIEF_FACTS = { name: 'Katherine Johnson', email: 'katherine@example.org', start: '2027-05-04' } as const;

function brief(ctx: PageContext): string {
  const form = `${ctx.other}/form`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Applicant brief</title></head><body>
<main><h1>Applicant brief</h1>
<p>Name: ${BRIEF_FACTS.name}</p><p>Email: ${BRIEF_FACTS.email}</p><p>Start date: ${BRIEF_FACTS.start}</p>
<p>Apply with the <a id="form-link" href="${form}" target="_blank">application form</a> at ${form}</p></main></body></html>`;
}

/** The task pages by path. */
export const TASK_PAGES: Readonly<Record<string, (ctx: PageContext) => string>> = { '/brief': brief };
