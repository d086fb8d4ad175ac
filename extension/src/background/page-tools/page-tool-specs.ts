/**
 * The page tools the extension declares as client tools: one zod schema per tool's arguments, from which both the
 * JSON Schema sent at `initialize` and the parser of each call come, so the two cannot disagree. Descriptions are
 * short on purpose: every backend pays for them on every turn.
 */
import type { ClientTool, ToolAnnotations } from '@tether/protocol';
import { z } from 'zod';
import { type TOOL_CLASSES, toolClassOf } from '../../shared/action-risk';
import { ConsoleLevel } from '../devtools/console-log';

/** Most characters of page text page_read returns. */
export const PAGE_READ_MAX_CHARS = 200_000;
/** page_read's default cap. */
export const PAGE_READ_DEFAULT_CHARS = 50_000;
/** Longest page_wait. */
export const PAGE_WAIT_MAX_MS = 30_000;
/** Most files one page_upload gives a page. */
export const MAX_UPLOAD_FILES = 20;

/** An absolute POSIX path, or a Windows drive or UNC path. */
function isAbsolutePath(p: string): boolean {
  return p.startsWith('/') || /^[a-zA-Z]:[\\/]/.test(p) || p.startsWith('\\\\');
}

const Ref = z
  .string()
  .regex(/^(f\d+)?e\d+$/, 'a ref from the latest page_snapshot, like "e12"')
  .describe('Element ref from the latest page_snapshot or page_find, like "e12".');

const Dialog = {
  dialog: z
    .enum(['accept', 'dismiss'])
    .optional()
    .describe('How to answer an alert/confirm/prompt this action opens (default: dismiss, and it is reported).'),
  promptText: z.string().max(10_000).optional().describe('Text to answer a prompt() with, when dialog is accept.'),
};

const none = z.object({}).strict();

const TabId = z.number().int().nonnegative();

/** Each tool's arguments. */
export const PAGE_TOOL_ARGS = {
  page_read: z
    .object({
      // A cap out of range is clamped rather than refused: the model meant "more" or "less", not something else.
      maxChars: z
        .preprocess(
          (v) =>
            typeof v === 'number' && Number.isFinite(v)
              ? Math.max(1000, Math.min(PAGE_READ_MAX_CHARS, Math.floor(v)))
              : v,
          z.number().int().min(1000).max(PAGE_READ_MAX_CHARS),
        )
        .optional()
        .describe('Cap on the text length.'),
      ref: Ref.optional().describe("Read only this element whole: a field's full value, or the element's text."),
    })
    .strict(),
  page_snapshot: z
    .object({
      from: Ref.optional().describe('Continue a cut snapshot from this ref (the note at its end names it).'),
    })
    .strict(),
  page_find: z.object({ text: z.string().min(1).max(500).describe('Text to look for (case-insensitive).') }).strict(),
  page_screenshot: z.object({ ref: Ref.optional().describe('Only this element.') }).strict(),
  page_wait: z
    .object({
      text: z.string().min(1).max(500).optional().describe('Wait until this text is on the page.'),
      textGone: z.string().min(1).max(500).optional().describe('Wait until this text is gone.'),
      ms: z.number().int().min(0).max(PAGE_WAIT_MAX_MS).optional().describe('Most to wait (default 5000).'),
    })
    .strict(),
  tabs_list: none,
  page_console: z
    .object({
      since: z
        .number()
        .int()
        .min(0)
        .optional()
        .describe('Only messages after this number (the "Next: since=N" of an earlier result).'),
      level: ConsoleLevel.optional().describe('Only this level or worse (debug < log, info < warn < error).'),
    })
    .strict(),
  page_network: z
    .object({
      filter: z.string().min(1).max(500).optional().describe('Only requests whose URL contains this text.'),
      failedOnly: z.boolean().optional().describe('Only failures: network errors and HTTP 4xx/5xx.'),
      bodyOf: z
        .string()
        .regex(/^r\d+$/, 'a request id from a page_network list, like "r12"')
        .optional()
        .describe(
          "One request's id from a list: its headers and the body it sent, and the response body of the page's fetch/XHR as its scripts received it (secrets masked).",
        ),
    })
    .strict(),
  page_click: z
    .object({
      ref: Ref,
      button: z.enum(['left', 'right', 'middle']).optional().describe('Mouse button (default left).'),
      double: z
        .boolean()
        .optional()
        .describe("Double-click, as a user's two quick presses: opens a grid cell's editor, selects a word."),
      ...Dialog,
    })
    .strict(),
  page_type: z
    .object({
      ref: Ref,
      text: z.string().max(100_000),
      submit: z.boolean().optional().describe('Press Enter after typing.'),
      clear: z
        .boolean()
        .optional()
        .describe("Replace the field's value; without it the text goes in at the caret, after what the field holds."),
      ...Dialog,
    })
    .strict(),
  page_fill_form: z
    .object({
      fields: z
        .array(z.object({ ref: Ref, value: z.string().max(100_000) }).strict())
        .min(1)
        .max(50)
        .describe('Fields to set: text, date, number inputs, textareas; checkboxes take "true"/"false".'),
    })
    .strict(),
  page_select: z
    .object({
      ref: Ref,
      values: z.array(z.string().max(1000)).min(1).max(100).describe('Option values or visible labels.'),
    })
    .strict(),
  page_check: z.object({ ref: Ref, checked: z.boolean() }).strict(),
  page_hover: z.object({ ref: Ref }).strict(),
  page_drag: z
    .object({
      from: Ref.describe('Element to drag.'),
      to: Ref.describe('Element to drop it on.'),
      position: z
        .object({ x: z.number().min(0).max(100_000), y: z.number().min(0).max(100_000) })
        .strict()
        .optional()
        .describe("Drop point in px from the target's top-left (default: its centre)."),
    })
    .strict(),
  page_upload: z
    .object({
      ref: Ref.describe('A file input, or a drop zone.'),
      paths: z
        .array(
          z
            .string()
            .min(1)
            .max(4096)
            .refine((p) => isAbsolutePath(p), 'an absolute path, like /home/me/report.pdf or C:\\Users\\me\\a.png'),
        )
        .min(1)
        .max(MAX_UPLOAD_FILES)
        .describe("Absolute paths of files on the user's computer."),
    })
    .strict(),
  page_press: z
    .object({
      key: z.string().min(1).max(50).describe('Enter, Tab, Escape, ArrowDown, or a chord like Control+a.'),
      ref: Ref.optional().describe('Element to focus first (default: the focused one).'),
      ...Dialog,
    })
    .strict(),
  page_scroll: z
    .object({
      ref: Ref.optional().describe('Scroll this element into view.'),
      dy: z.number().int().min(-100_000).max(100_000).optional().describe('Pixels to scroll down (negative: up).'),
    })
    .strict(),
  page_navigate: z.object({ url: z.string().min(1).max(8192).describe('An http or https address.') }).strict(),
  page_back: none,
  page_forward: none,
  page_reload: none,
  tabs_open: z
    .object({
      url: z.string().min(1).max(8192).describe('An http or https address.'),
      background: z.boolean().optional().describe('Open it without showing it to the user (default: show it).'),
    })
    .strict(),
  tabs_select: z.object({ tabId: TabId.describe('A tab of this task, from tabs_list.') }).strict(),
  tabs_close: z.object({ tabId: TabId.describe('A tab the agent opened with tabs_open.') }).strict(),
  page_ask_user: z
    .object({
      message: z.string().trim().min(1).max(2000).describe('What the user should do or decide, in a sentence or two.'),
      answer: z
        .string()
        .trim()
        .min(1)
        .max(100)
        .optional()
        .describe('What the user should type back, when you need it: "the 6-digit code".'),
    })
    .strict(),
} satisfies Record<keyof typeof TOOL_CLASSES, z.ZodType>;

/** The name of a page tool. */
export type PageToolName = keyof typeof PAGE_TOOL_ARGS;

const DESCRIPTIONS: Record<PageToolName, string> = {
  page_read:
    "Read the page in this conversation's tab as text: URL, title, selected text, main text and text fields; or one element by ref.",
  page_snapshot:
    'Snapshot the page as an accessibility tree, one element per line; controls and other clickables carry [ref=eN] for the action tools. Call again after the page changes.',
  page_find:
    'Find text on the page: matching elements with their refs; a word inside a paragraph gets a ref of its own, to click it.',
  page_screenshot: 'A PNG screenshot of the visible tab, or of one element by ref.',
  page_wait: 'Wait (bounded) until text appears or disappears, or for some milliseconds.',
  tabs_list:
    "List the tabs in the window of this conversation's tab: id, title, URL, active, whether it is one of this task's tabs, and which one the page tools act on.",
  page_console:
    "The tab's console since the page loaded: log/info/warn/error/debug messages, uncaught errors and rejections, with source url:line:col, newest last.",
  page_network:
    "The tab's requests since the page loaded: method, status, type, URL, time, size; failures with failedOnly. No bodies in the list; bodyOf shows one request's headers, sent body and response body: only fetch/XHR responses have one (kept by Tether's hook in the page, up to 64 KB each, the last 50), not documents, scripts or images.",
  page_click:
    'Click an element by ref (a data grid cell too; double-click one to edit it). Returns what changed, and what took the focus.',
  page_type: 'Type text into a field by ref (optionally clear first, press Enter after). Returns what changed.',
  page_fill_form: 'Set several form fields at once by ref. Returns what changed.',
  page_select: 'Choose options of a select by ref.',
  page_check: 'Check or uncheck a checkbox or radio by ref.',
  page_hover: 'Move the pointer over an element by ref.',
  page_drag: 'Drag an element onto another by ref (drag-and-drop, sortable lists). Returns what changed.',
  page_upload: "Give files from the user's computer to a file input or drop zone by ref (asks the user each time).",
  page_press: 'Press a key or chord, on an element by ref or the focused one.',
  page_scroll: 'Scroll an element into view by ref, or the page by dy pixels.',
  page_navigate: 'Open an http(s) URL in this tab. Returns the new page.',
  page_back: 'Go back in the tab history.',
  page_forward: 'Go forward in the tab history.',
  page_reload: 'Reload the page.',
  tabs_open:
    'Open an http(s) URL in a new tab of this task; the following page tools act on it. Returns its tab id and page.',
  tabs_select: 'Make a tab of this task the one the following page tools act on (the page tools also take a tabId).',
  tabs_close: 'Close a tab the agent opened; the page tools go back to the tab the conversation started in.',
  page_ask_user:
    "Hand the page to the user for what only they can do (sign in, a CAPTCHA, a 2FA code, a choice) and wait until they click Done or I can't. Returns their reply.",
};

function annotationsOf(name: PageToolName): ToolAnnotations {
  switch (toolClassOf(name)) {
    case 'read':
      return { readOnlyHint: true, openWorldHint: false };
    case 'navigate':
      return { readOnlyHint: false, destructiveHint: false, openWorldHint: true };
    default:
      return { readOnlyHint: false, destructiveHint: true, openWorldHint: false };
  }
}

function isPageToolName(name: string): name is PageToolName {
  return Object.hasOwn(PAGE_TOOL_ARGS, name);
}

/**
 * The optional target every `page_*` tool takes (a tool added to the table gets it by its name): a tab of the task,
 * acted on without switching to it. It is taken off the arguments before the tool's own schema parses them.
 */
export const TAB_TARGET = {
  tabId: TabId.optional().describe('A tab of this task (from tabs_list) to use instead of the current one.'),
};

/**
 * Whether tool `name` takes the `tabId` target: every `page_*` tool does; the `tabs_*` tools name their own tab, and
 * page_ask_user asks in the conversation's side panel and brings that tab forward.
 */
export function takesTabTarget(name: string): boolean {
  return name.startsWith('page_') && name !== 'page_ask_user';
}

/** The schema the model sees for a tool: its arguments, with the tab target where it takes one. */
function declaredSchema(name: PageToolName): z.ZodType {
  const args: z.ZodObject = PAGE_TOOL_ARGS[name];
  return takesTabTarget(name) ? args.extend(TAB_TARGET) : args;
}

/** Tool declarations sent in `initialize.capabilities.clientTools`. */
export const CLIENT_TOOLS: readonly ClientTool[] = Object.keys(PAGE_TOOL_ARGS)
  .filter(isPageToolName)
  .map((name) => {
    const { $schema: _, ...inputSchema } = z.toJSONSchema(declaredSchema(name));
    return { name, description: DESCRIPTIONS[name], inputSchema, annotations: annotationsOf(name) };
  });

/** Names of the page tools. */
export const PAGE_TOOL_NAMES: ReadonlySet<string> = new Set(CLIENT_TOOLS.map((t) => t.name));

/** A parsed call of one page tool. */
export type PageToolCall = {
  [K in PageToolName]: { tool: K; args: z.infer<(typeof PAGE_TOOL_ARGS)[K]> };
}[PageToolName];

/** A call of a `tabs_*` tool: it works on the task's tabs (tabs/tab-tools.ts), not inside one page. */
export type TabToolCall = Extract<PageToolCall, { tool: `tabs_${string}` }>;

/** A call that works inside one tab's page (page-tools.ts). */
export type PageCall = Exclude<PageToolCall, TabToolCall>;

/** Whether `call` is one of the `tabs_*` tools. */
export function isTabToolCall(call: PageToolCall): call is TabToolCall {
  return call.tool.startsWith('tabs_');
}

/** The arguments without the tab target, and the target's own parse (of `{}` when the tool takes none). */
function splitTarget(tool: string, args: unknown): { rest: unknown; target: unknown } {
  if (!takesTabTarget(tool) || typeof args !== 'object' || args === null || Array.isArray(args))
    return { rest: args ?? {}, target: {} };
  const entries = Object.entries(args);
  return {
    rest: Object.fromEntries(entries.filter(([k]) => k !== 'tabId')),
    target: Object.fromEntries(entries.filter(([k]) => k === 'tabId')),
  };
}

/**
 * Parses a call's arguments, with the tab it targets (`tabId`, absent: the task's current tab) apart; the error says
 * which argument is wrong, in words a model can act on.
 */
export function parsePageToolCall(
  tool: string,
  args: unknown,
): { ok: true; call: PageToolCall; tabId?: number } | { ok: false; error: string } {
  if (!isPageToolName(tool)) return { ok: false, error: `The extension has no tool named "${tool}".` };
  const { rest, target } = splitTarget(tool, args);
  const parsed = PAGE_TOOL_ARGS[tool].safeParse(rest);
  const tab = z.object(TAB_TARGET).safeParse(target);
  if (!parsed.success || !tab.success) {
    const issues = [...(parsed.error?.issues ?? []), ...(tab.error?.issues ?? [])];
    const why = issues.map((i) => `${i.path.length > 0 ? i.path.join('.') : 'arguments'}: ${i.message}`).join('; ');
    return {
      ok: false,
      error: `${tool} got arguments it cannot use (${why}). Check the tool's schema and call again.`,
    };
  }
  const tabId = tab.data.tabId;
  // The schema table is keyed by name, so the parsed arguments belong to this tool.
  return { ok: true, call: { tool, args: parsed.data } as PageToolCall, ...(tabId === undefined ? {} : { tabId }) };
}
