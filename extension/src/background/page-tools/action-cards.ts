/**
 * What an approval card says a page tool is about to do, built by the extension from what it found on the page: the
 * element's role and accessible name and the page's origin. Text the model wrote is never part of the description;
 * it is shown apart, as the value typed or the address opened.
 */
import type { ElementFacts } from '../../shared/agent-contract';
import type { PageToolCall } from './page-tool-specs';

/** Shortest readable form of an origin: the host (and port), or the whole origin when it is not a web one. */
export function siteName(origin: string): string {
  try {
    const u = new URL(origin);
    return u.host || origin;
  } catch {
    return origin;
  }
}

function clip(text: string, max: number): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/** `button "Place order"`, or the bare role for an element without a name. */
export function elementLabel(el: ElementFacts): string {
  const name = clip(el.name, 80);
  return name ? `${el.role} ${JSON.stringify(name)}` : el.role;
}

/** " on shop.example", or " in a frame from pay.example on shop.example" when the element's frame is elsewhere. */
function where(el: ElementFacts | undefined, pageOrigin: string): string {
  const page = siteName(pageOrigin);
  if (!el || el.origin === pageOrigin) return ` on ${page}`;
  // A sandboxed or data: frame has an opaque origin: it is not the page's site, whatever its address says.
  if (el.origin === 'null') return ` in a sandboxed frame on ${page}`;
  return ` in a frame from ${siteName(el.origin)} on ${page}`;
}

function characters(n: number): string {
  return n === 1 ? '1 character' : `${n} characters`;
}

/** The card's description and the data shown apart from it. `elements` are the facts of the call's refs, in order. */
export function describeAction(
  call: PageToolCall,
  elements: readonly ElementFacts[],
  pageOrigin: string,
): { preview: string; value?: string } {
  const el = elements[0];
  const on = where(el, pageOrigin);
  const target = el ? elementLabel(el) : 'the element';
  const page = siteName(pageOrigin);
  const thisPage = page === 'this page' ? 'this page' : `this page (${page})`;
  switch (call.tool) {
    case 'page_read':
      return { preview: `Read the text of ${thisPage}` };
    case 'page_snapshot':
      return { preview: `Read the structure of ${thisPage}: its headings, controls and their values` };
    case 'page_find':
      return { preview: `Search ${thisPage} for text`, value: call.args.text };
    case 'page_wait':
      return { preview: `Watch ${thisPage} for a change`, value: call.args.text ?? call.args.textGone };
    case 'page_screenshot':
      return { preview: el ? `Take a screenshot of ${target}${on}` : `Take a screenshot of ${thisPage}` };
    case 'tabs_list':
      return { preview: 'List the titles and addresses of the tabs in this window' };
    case 'page_console':
      return { preview: `Read the console messages and errors of ${thisPage}` };
    case 'page_network':
      return call.args.bodyOf
        ? { preview: `Read the headers and bodies of request ${call.args.bodyOf} of ${thisPage} (secrets masked)` }
        : { preview: `Read the list of requests ${thisPage} made`, value: call.args.filter };
    case 'page_click': {
      const verb = call.args.button === 'right' ? 'Right-click' : call.args.double ? 'Double-click' : 'Click';
      const dest = el?.risk.href ? linkDestination(el.risk.href, pageOrigin) : '';
      return { preview: `${verb} ${target}${on}${dest}` };
    }
    case 'page_type':
      return {
        preview: `Type ${characters(call.args.text.length)} into ${target}${on}${call.args.submit ? ', then press Enter' : ''}`,
        value: el?.risk.password ? '•'.repeat(Math.min(call.args.text.length, 40)) : call.args.text,
      };
    case 'page_fill_form': {
      const rows = call.args.fields.map((f, i) => {
        const fe = elements[i];
        const shown = fe?.risk.password ? '•'.repeat(Math.min(f.value.length, 40)) : f.value;
        return `${fe ? elementLabel(fe) : f.ref}: ${shown}`;
      });
      const n = call.args.fields.length;
      return { preview: `Fill ${n === 1 ? '1 field' : `${n} fields`}${on}`, value: rows.join('\n') };
    }
    case 'page_select':
      return {
        preview: `Choose ${call.args.values.length === 1 ? 'an option' : 'options'} in ${target}${on}`,
        value: call.args.values.join('\n'),
      };
    case 'page_check':
      return { preview: `${call.args.checked ? 'Check' : 'Uncheck'} ${target}${on}` };
    case 'page_hover':
      return { preview: `Move the pointer over ${target}${on}` };
    case 'page_drag': {
      const to = elements[1];
      return { preview: `Drag ${target} onto ${to ? elementLabel(to) : 'another element'}${on}` };
    }
    case 'page_upload': {
      const n = call.args.paths.length;
      const what = el?.tag === 'input' ? target : `the drop area ${target}`;
      return {
        preview: `Give ${n === 1 ? '1 file' : `${n} files`} from your computer to ${what}${on}`,
        value: call.args.paths.map((p) => `${baseName(p)}  (${p})`).join('\n'),
      };
    }
    case 'page_press':
      return {
        preview: el ? `Press a key in ${target}${on}` : `Press a key on ${thisPage}`,
        value: call.args.key,
      };
    case 'page_scroll':
      return { preview: el ? `Scroll ${target} into view${on}` : `Scroll ${thisPage}` };
    case 'page_navigate':
      return {
        preview: `Open a page on ${siteName(call.args.url)} in this tab (now on ${page})`,
        value: call.args.url,
      };
    case 'page_back':
      return { preview: `Go back in this tab's history (now on ${page})` };
    case 'page_forward':
      return { preview: `Go forward in this tab's history (now on ${page})` };
    case 'page_reload':
      return { preview: `Reload ${thisPage}` };
    case 'tabs_open':
      return { preview: `Open a page on ${siteName(call.args.url)} in a new tab of this task`, value: call.args.url };
    case 'tabs_select':
      return { preview: `Work on the task's tab that shows ${page}` };
    case 'tabs_close':
      return { preview: `Close the tab the agent opened on ${page}` };
    case 'page_ask_user':
      return { preview: `Ask you to take over ${thisPage}`, value: call.args.message };
  }
}

/** The file name of a path, POSIX or Windows. */
export function baseName(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).pop() ?? path;
}

/** ", which leads to other.example" for a link to another origin; empty for a link on the same site. */
function linkDestination(href: string, pageOrigin: string): string {
  try {
    const u = new URL(href);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return `, a ${u.protocol} link`;
    return u.origin === pageOrigin ? '' : `, which leads to ${u.host}`;
  } catch {
    return '';
  }
}
