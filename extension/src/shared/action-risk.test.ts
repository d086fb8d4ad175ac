import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import type { ElementFacts } from './agent-contract';
import { facts } from './agent-contract.fixtures';
import {
  classOnSite,
  highRiskReasons,
  isSubmitKey,
  navigationRefusal,
  TOOL_CLASSES,
  toolClassOf,
  type PlannedAction,
} from './action-risk';

const el = (risk: Partial<ElementFacts['risk']> = {}, role = 'textbox') => facts(role, 'x', { risk });

const reasons = (tool: string, elements: ElementFacts[], over: Partial<PlannedAction> = {}) =>
  highRiskReasons({ tool, elements, ...over });

const PASSWORD = 'It types into a password field.';
const PAYMENT = 'It types into a payment field.';
const SENDS_SECRET = 'It submits a form with a password or payment field.';
const DESTRUCTIVE = 'The control reads like delete or remove.';
const SENDS_DESTRUCTIVE = 'The form it submits reads like delete or remove.';
const DOWNLOAD = 'It starts a download.';
const UNSEEN = 'It presses a key that can submit a form or press a button where the focus is, unseen.';

describe('highRiskReasons', () => {
  it('asks every time before giving the page files from the computer, and never for a drag', () => {
    expect(reasons('page_upload', [el({}, 'button')])).toEqual(['It gives files from your computer to the page.']);
    expect(reasons('page_drag', [el({}, 'button'), el({}, 'button')])).toEqual([]);
  });

  it('asks every time before typing or filling a password or payment field', () => {
    expect(reasons('page_type', [el({ password: true })])).toEqual([PASSWORD]);
    expect(reasons('page_type', [el({ payment: true })])).toEqual([PAYMENT]);
    expect(reasons('page_fill_form', [el(), el({ password: true }), el({ payment: true })])).toEqual([
      PASSWORD,
      PAYMENT,
    ]);
    // The same reason once, however many fields give it.
    expect(reasons('page_fill_form', [el({ password: true }), el({ password: true })])).toEqual([PASSWORD]);
  });

  it('asks before a click that submits a form holding a password or payment field, not one that does not', () => {
    const submit = (formHasSecret: boolean) => el({ submitsForm: true, formHasSecret }, 'button');
    expect(reasons('page_click', [submit(true)])).toEqual([SENDS_SECRET]);
    expect(reasons('page_click', [submit(false)])).toEqual([]);
    // A click on a field of that form sends nothing.
    expect(reasons('page_click', [el({ formHasSecret: true })])).toEqual([]);
  });

  it('asks before a destructive click, and before sending a form whose submit reads destructive', () => {
    expect(reasons('page_click', [el({ destructive: true }, 'button')])).toEqual([DESTRUCTIVE]);
    expect(reasons('page_click', [el({ destructive: true, submitsForm: true }, 'button')])).toEqual([
      DESTRUCTIVE,
      SENDS_DESTRUCTIVE,
    ]);
    expect(reasons('page_type', [el({ destructive: true })], { submits: true })).toEqual([SENDS_DESTRUCTIVE]);
    expect(reasons('page_type', [el({ destructive: true })])).toEqual([]);
  });

  it('asks before a click that starts a download', () => {
    expect(reasons('page_click', [el({ download: true }, 'link')])).toEqual([DOWNLOAD]);
  });

  it('asks before Enter in a form holding a secret, by page_type submit or by page_press', () => {
    const field = el({ formHasSecret: true });
    expect(reasons('page_type', [field], { submits: true })).toEqual([SENDS_SECRET]);
    expect(reasons('page_type', [field])).toEqual([]);
    expect(reasons('page_press', [field], { submits: true, key: 'Enter' })).toEqual([SENDS_SECRET]);
    expect(reasons('page_press', [field], { submits: false, key: 'Tab' })).toEqual([]);
    // Typing the password and sending it gives both reasons.
    expect(reasons('page_type', [el({ password: true, formHasSecret: true })], { submits: true })).toEqual([
      PASSWORD,
      SENDS_SECRET,
    ]);
  });

  it('judges Enter or Space on a button or link as the click it is', () => {
    const signIn = el({ submitsForm: true, formHasSecret: true }, 'button');
    expect(reasons('page_press', [signIn], { key: 'Space' })).toEqual([SENDS_SECRET]);
    expect(reasons('page_press', [signIn], { key: ' ' })).toEqual([SENDS_SECRET]);
    expect(reasons('page_press', [el({ destructive: true }, 'button')], { key: 'Enter', submits: true })).toEqual([
      DESTRUCTIVE,
      SENDS_DESTRUCTIVE,
    ]);
    expect(reasons('page_press', [el({ download: true }, 'link')], { key: 'Shift+Enter', submits: true })).toEqual([
      DOWNLOAD,
    ]);
    expect(reasons('page_press', [el({ download: true }, 'link')], { key: 'ArrowDown' })).toEqual([]);
  });

  it('asks before Enter or Space without a ref, since the focused element was never described', () => {
    expect(reasons('page_press', [], { key: 'Enter', submits: true })).toEqual([UNSEEN]);
    expect(reasons('page_press', [], { key: 'Space' })).toEqual([UNSEEN]);
    expect(reasons('page_press', [], { key: 'Escape' })).toEqual([]);
  });

  it('finds nothing high-risk in reading, hovering, scrolling, checking or selecting, whatever the element', () => {
    const everything = el({
      password: true,
      payment: true,
      destructive: true,
      submitsForm: true,
      formHasSecret: true,
      download: true,
    });
    for (const tool of ['page_snapshot', 'page_hover', 'page_scroll', 'page_check', 'page_select', 'page_screenshot'])
      expect(reasons(tool, [everything])).toEqual([]);
  });
});

describe('isSubmitKey', () => {
  it('knows Enter, its aliases and chords ending in it, and nothing else', () => {
    for (const key of ['Enter', 'enter', 'Return', 'NumpadEnter', 'Control+Enter', 'Shift+Enter', ' Enter '])
      expect(isSubmitKey(key), key).toBe(true);
    for (const key of ['Tab', 'Escape', 'Space', ' ', 'e', 'Enter+a', 'Control++', 'ArrowDown'])
      expect(isSubmitKey(key), key).toBe(false);
  });
});

describe('navigationRefusal', () => {
  it('lets http and https addresses be asked for', () => {
    for (const url of ['https://b.example/login', 'http://127.0.0.1:8080/form', 'HTTPS://B.EXAMPLE'])
      expect(navigationRefusal(url), url).toBeUndefined();
  });

  it('refuses file:, chrome:, javascript:, data:, about: and other schemes, saying why', () => {
    const cases: Record<string, RegExp> = {
      'file:///etc/passwd': /not file: ones/,
      'chrome://settings': /not chrome: ones/,
      'javascript:alert(1)': /not javascript: ones/,
      'JavaScript:alert(1)': /not javascript: ones/,
      'data:text/html,<script>alert(1)</script>': /not data: ones/,
      'about:blank': /not about: ones/,
      'chrome-extension://abc/page.html': /not chrome-extension: ones/,
      'view-source:https://a.example': /not view-source: ones/,
      'blob:https://a.example/123': /not blob: ones/,
      'ftp://a.example/x': /not ftp: ones/,
    };
    for (const [url, why] of Object.entries(cases)) expect(navigationRefusal(url), url).toMatch(why);
  });

  it('refuses relative and malformed addresses, asking for a full URL', () => {
    for (const url of ['/admin', 'b.example', '//b.example/x', '', 'http//x'])
      expect(navigationRefusal(url), url).toMatch(/not an absolute address; give a full http or https URL/);
  });

  test.prop([fc.string()])('never throws and refuses anything that does not parse as http(s)', (url) => {
    const refusal = navigationRefusal(url);
    let scheme: string | undefined;
    try {
      scheme = new URL(url).protocol;
    } catch {
      scheme = undefined;
    }
    expect(refusal === undefined).toBe(scheme === 'http:' || scheme === 'https:');
  });

  test.prop([fc.stringMatching(/^[a-z][a-z0-9+.-]{0,15}$/).filter((s) => s !== 'http' && s !== 'https'), fc.string()])(
    'refuses every scheme but http and https',
    (scheme, rest) => {
      expect(navigationRefusal(`${scheme}:${rest}`)).toBeDefined();
    },
  );

  test.prop([fc.webUrl()])('asks for every web URL', (url) => {
    expect(navigationRefusal(url)).toBeUndefined();
  });
});

describe('tool classes', () => {
  it('puts every page tool in one class, reading first, and knows no other tool', () => {
    expect(Object.keys(TOOL_CLASSES).filter((t) => TOOL_CLASSES[t] === 'read')).toEqual([
      'page_read',
      'page_snapshot',
      'page_find',
      'page_screenshot',
      'page_wait',
      'tabs_list',
      'tabs_select',
      'page_ask_user',
      'page_console',
      'page_network',
    ]);
    expect(Object.keys(TOOL_CLASSES).filter((t) => TOOL_CLASSES[t] === 'navigate')).toEqual([
      'page_navigate',
      'page_back',
      'page_forward',
      'page_reload',
      'tabs_open',
    ]);
    for (const name of ['bash', 'apply_patch', 'toString', '__proto__', 'constructor', ''])
      expect(toolClassOf(name), name).toBeUndefined();
    expect(toolClassOf('page_click')).toBe('act');
  });

  it('words a remembered choice by class and origin', () => {
    expect(classOnSite('read', 'https://a.example')).toBe('reading https://a.example');
    expect(classOnSite('act', 'https://a.example')).toBe('acting on https://a.example');
    expect(classOnSite('navigate', 'https://b.example')).toBe('opening https://b.example');
  });
});
