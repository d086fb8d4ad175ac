/**
 * What each page tool may do, in the classes approvals remember, and which actions ask every time. This is the one
 * list: the worker applies it before asking, the broker refuses remembered choices for what it marks high-risk, and
 * the card shows its reasons. The element facts come from the page agent; the policy is decided here, not in a page.
 */
import { z } from 'zod';
import type { ElementFacts } from './agent-contract';

/** The classes of page tools, each with its own remembered choices. */
export const ToolClass = z.enum(['read', 'act', 'navigate']);
export type ToolClass = z.infer<typeof ToolClass>;

/** The class of every page tool the extension declares; a tool missing here is not a page tool. */
export const TOOL_CLASSES: Readonly<Record<string, ToolClass>> = {
  page_read: 'read',
  page_snapshot: 'read',
  page_find: 'read',
  page_screenshot: 'read',
  page_wait: 'read',
  tabs_list: 'read',
  tabs_select: 'read',
  // Asks the user and changes nothing; never gated (the user answers it in the panel), so the class only marks it read-only.
  page_ask_user: 'read',
  page_console: 'read',
  page_network: 'read',
  page_click: 'act',
  page_type: 'act',
  page_fill_form: 'act',
  page_select: 'act',
  page_check: 'act',
  page_hover: 'act',
  page_drag: 'act',
  page_upload: 'act',
  page_press: 'act',
  page_scroll: 'act',
  tabs_close: 'act',
  page_navigate: 'navigate',
  page_back: 'navigate',
  page_forward: 'navigate',
  page_reload: 'navigate',
  tabs_open: 'navigate',
};

/** The class of `toolName`, or undefined when it is not one of the extension's page tools. */
export function toolClassOf(toolName: string): ToolClass | undefined {
  return Object.hasOwn(TOOL_CLASSES, toolName) ? TOOL_CLASSES[toolName] : undefined;
}

/** What a class lets a remembered choice do, in the card's and the options page's words. */
export function classVerb(c: ToolClass): string {
  switch (c) {
    case 'read':
      return 'reading pages';
    case 'act':
      return 'acting on pages';
    case 'navigate':
      return 'opening pages';
  }
}

/** What a remembered choice of class `c` covers on `origin`: "acting on https://shop.example". */
export function classOnSite(c: ToolClass, origin: string): string {
  switch (c) {
    case 'read':
      return `reading ${origin}`;
    case 'act':
      return `acting on ${origin}`;
    case 'navigate':
      return `opening ${origin}`;
  }
}

/** Schemes `page_navigate` opens; anything else (file:, chrome:, javascript:, data:, about:, ...) is refused. */
const NAVIGABLE = new Set(['http:', 'https:']);

/** Why `url` may not be opened by the agent, or undefined when it may be asked for. */
export function navigationRefusal(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `"${url}" is not an absolute address; give a full http or https URL.`;
  }
  if (!NAVIGABLE.has(parsed.protocol))
    return `The agent may only open http and https addresses, not ${parsed.protocol} ones: ${parsed.protocol} pages can reach your files, the browser's settings or run script.`;
  return undefined;
}

/** Keys that submit the form of the focused field ('return' is the page agent's alias of Enter, content/keys.ts). */
const SUBMIT_KEYS = new Set(['enter', 'return', 'numpadenter']);
/** Keys that press the focused button or link as a click does (content/act.ts), whatever the modifiers. */
const ACTIVATION_KEYS = new Set([...SUBMIT_KEYS, 'space', ' ']);

/** An action about to run, with the facts of every element it touches. */
export interface PlannedAction {
  readonly tool: string;
  /** The target element(s) as the page agent describes them (a fill touches several). */
  readonly elements: readonly ElementFacts[];
  /** `page_type` with `submit`, or `page_press` of Enter: the field's form is sent. */
  readonly submits?: boolean;
  /** `page_press`'s key: Enter or Space on a button or link is a click on it. */
  readonly key?: string;
}

/**
 * The reasons an action asks the user every time, even under a site rule or a thread grant; empty when none.
 * Submitting a form that holds a password or payment field, anything that says delete, typing a password or card
 * data, and downloads: the kinds of step Claude in Chrome also confirms, decided from facts the page cannot hide.
 */
export function highRiskReasons(action: PlannedAction): string[] {
  const reasons = new Set<string>();
  // Enter or Space on a control clicks it, so such a press is judged as the click it is.
  const activates = action.tool === 'page_press' && action.key !== undefined && pressKey(action.key, ACTIVATION_KEYS);
  const clicks = action.tool === 'page_click' || activates;
  // Without a ref the key goes to whatever has focus, which the card cannot describe: it could send any form.
  if (activates && action.elements.length === 0)
    reasons.add('It presses a key that can submit a form or press a button where the focus is, unseen.');
  // Files from the user's computer leave it: which files and which site is for the user to see every time.
  if (action.tool === 'page_upload') reasons.add('It gives files from your computer to the page.');
  for (const el of action.elements) {
    const r = el.risk;
    const typing = action.tool === 'page_type' || action.tool === 'page_fill_form';
    if (typing && r.password) reasons.add('It types into a password field.');
    if (typing && r.payment) reasons.add('It types into a payment field.');
    const sends = (clicks && r.submitsForm) || action.submits === true;
    if (sends && r.formHasSecret) reasons.add('It submits a form with a password or payment field.');
    if (clicks && r.destructive) reasons.add('The control reads like delete or remove.');
    if (sends && r.destructive) reasons.add('The form it submits reads like delete or remove.');
    if (clicks && r.download) reasons.add('It starts a download.');
  }
  return [...reasons];
}

/** Whether `key` (as page_press takes it, e.g. "Enter" or "Control+Enter") submits the focused field's form. */
export function isSubmitKey(key: string): boolean {
  return pressKey(key, SUBMIT_KEYS);
}

/** Whether the key of a chord ("Control+Enter": Enter) is one of `keys`. */
function pressKey(chord: string, keys: ReadonlySet<string>): boolean {
  const last = chord.split('+').pop() ?? chord;
  return keys.has(last === ' ' ? ' ' : last.trim().toLowerCase());
}
