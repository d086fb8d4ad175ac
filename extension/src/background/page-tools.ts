/**
 * The page tools the extension declares as client tools. Each runs only on the tab bound to the calling thread, and
 * only after the approval broker allowed it (the caller's job). Browser APIs are injected so results are testable.
 */
import type { ClientTool, ToolCallResult } from '@tether/protocol';
import { z } from 'zod';
import { errorMessage } from '@tether/protocol';

/** Most characters of page text page_read returns. */
export const PAGE_READ_MAX_CHARS = 200_000;
const PAGE_READ_DEFAULT_CHARS = 50_000;

/** Tool declarations sent in `initialize.capabilities.clientTools`. */
export const CLIENT_TOOLS: readonly ClientTool[] = [
  {
    name: 'page_read',
    description:
      "Read the web page open in the user's browser tab for this conversation: URL, title, the text the user selected, and the page's main text (article extraction).",
    inputSchema: {
      type: 'object',
      properties: {
        maxChars: {
          type: 'integer',
          minimum: 1000,
          maximum: PAGE_READ_MAX_CHARS,
          description: 'Cap on the main text length.',
        },
      },
      additionalProperties: false,
    },
  },
  {
    name: 'tabs_list',
    description: "List the tabs in the browser window of this conversation's tab: title, URL and which one is active.",
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  },
  {
    name: 'page_screenshot',
    description:
      "Take a PNG screenshot of the visible part of this conversation's tab (it must be the window's active tab).",
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  },
];

/** Names of the page tools. */
export const PAGE_TOOL_NAMES: ReadonlySet<string> = new Set(CLIENT_TOOLS.map((t) => t.name));

/** What the injected page_read script returns (content/page-read.ts); parsed, since it ran in the page's tab. */
export const PageReadResult = z.object({
  url: z.string(),
  title: z.string(),
  selection: z.string(),
  text: z.string(),
  truncated: z.boolean(),
  byline: z.string().optional(),
});
export type PageReadResult = z.infer<typeof PageReadResult>;

/** A tab as tabs_list reports it. */
export interface TabSummary {
  id: number;
  title: string;
  url: string;
  active: boolean;
}

/** Browser access the tools need. */
export interface PageToolDeps {
  readPage(tabId: number, maxChars: number): Promise<PageReadResult>;
  listTabs(tabId: number): Promise<TabSummary[]>;
  /** A PNG data URL of the visible tab; rejects when the tab is not its window's active tab. */
  capture(tabId: number): Promise<string>;
}

/** What the approval card says a tool is about to do. */
export function toolPreview(tool: string, origin: string): string {
  switch (tool) {
    case 'page_read':
      return `Read the text of this page (${origin})`;
    case 'tabs_list':
      return 'List the titles and addresses of the tabs in this window';
    case 'page_screenshot':
      return `Take a screenshot of this page (${origin})`;
    default:
      return `Run ${tool}`;
  }
}

function failure(text: string): ToolCallResult {
  return { success: false, content: [{ type: 'text', text }] };
}

function maxCharsOf(args: unknown): number {
  const v = typeof args === 'object' && args !== null && 'maxChars' in args ? args.maxChars : undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) return PAGE_READ_DEFAULT_CHARS;
  return Math.max(1000, Math.min(PAGE_READ_MAX_CHARS, Math.floor(v)));
}

/** Runs a page tool on `tabId`; failures are tool results the model can read, not thrown errors. */
export async function runPageTool(
  tool: string,
  args: unknown,
  tabId: number,
  deps: PageToolDeps,
): Promise<ToolCallResult> {
  try {
    switch (tool) {
      case 'page_read': {
        const page = await deps.readPage(tabId, maxCharsOf(args));
        const header = [`URL: ${page.url}`, `Title: ${page.title}`];
        if (page.byline) header.push(`Byline: ${page.byline}`);
        if (page.selection) header.push(`Selected text: ${page.selection}`);
        const note = page.truncated ? '\n\n[The text was cut at the size limit.]' : '';
        return { success: true, content: [{ type: 'text', text: `${header.join('\n')}\n\n${page.text}${note}` }] };
      }
      case 'tabs_list': {
        const tabs = await deps.listTabs(tabId);
        return { success: true, content: [{ type: 'text', text: JSON.stringify(tabs, null, 1) }] };
      }
      case 'page_screenshot': {
        const dataUrl = await deps.capture(tabId);
        const data = dataUrl.slice(dataUrl.indexOf(',') + 1);
        return { success: true, content: [{ type: 'image', mimeType: 'image/png', data }] };
      }
      default:
        return failure(`The extension has no tool named "${tool}".`);
    }
  } catch (error) {
    return failure(`${tool} failed: ${errorMessage(error)}`);
  }
}
