import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { TOOL_CLASSES, toolClassOf } from '../../shared/action-risk';
import {
  CLIENT_TOOLS,
  PAGE_READ_MAX_CHARS,
  PAGE_TOOL_ARGS,
  PAGE_TOOL_NAMES,
  PAGE_WAIT_MAX_MS,
  parsePageToolCall,
} from './page-tool-specs';

/** The error of a call that must not parse. */
function refusal(tool: string, args: unknown): string {
  const r = parsePageToolCall(tool, args);
  if (r.ok) throw new Error(`${tool} ${JSON.stringify(args)} parsed`);
  return r.error;
}

describe('CLIENT_TOOLS', () => {
  it('declares exactly the tools that have a class, each once', () => {
    const names = CLIENT_TOOLS.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual(Object.keys(TOOL_CLASSES).sort());
    expect([...PAGE_TOOL_NAMES].sort()).toEqual([...names].sort());
    expect(Object.keys(PAGE_TOOL_ARGS).sort()).toEqual([...names].sort());
  });

  it('gives every tool a description and an object input schema without $schema that refuses unknown arguments', () => {
    for (const t of CLIENT_TOOLS) {
      expect(t.description, t.name).toMatch(/\S/);
      expect(t.inputSchema.type, t.name).toBe('object');
      expect(t.inputSchema, t.name).not.toHaveProperty('$schema');
      expect(t.inputSchema.additionalProperties, t.name).toBe(false);
    }
  });

  it('marks a tool read-only exactly when it is in the read class', () => {
    for (const t of CLIENT_TOOLS) {
      expect(t.annotations?.readOnlyHint, t.name).toBe(toolClassOf(t.name) === 'read');
      if (toolClassOf(t.name) === 'act') expect(t.annotations?.destructiveHint, t.name).toBe(true);
    }
  });

  it('tells the model the ref and key arguments it must give', () => {
    const schemaOf = (name: string) => CLIENT_TOOLS.find((t) => t.name === name)?.inputSchema;
    expect(schemaOf('page_click')?.required).toEqual(['ref']);
    expect(schemaOf('page_press')?.required).toEqual(['key']);
    expect(schemaOf('page_fill_form')?.required).toEqual(['fields']);
    expect(schemaOf('page_snapshot')?.required).toBeUndefined();
  });
});

describe('parsePageToolCall', () => {
  it('parses every tool with the smallest arguments it takes, and no arguments at all where none are needed', () => {
    const smallest: Record<string, unknown> = {
      page_find: { text: 'x' },
      page_click: { ref: 'e1' },
      page_type: { ref: 'e1', text: '' },
      page_fill_form: { fields: [{ ref: 'e1', value: 'v' }] },
      page_select: { ref: 'e1', values: ['a'] },
      page_check: { ref: 'e1', checked: true },
      page_hover: { ref: 'e1' },
      page_drag: { from: 'e1', to: 'e2' },
      page_upload: { ref: 'e1', paths: ['/tmp/a.txt'] },
      page_press: { key: 'Enter' },
      page_navigate: { url: 'https://a.example/' },
      tabs_open: { url: 'https://a.example/' },
      tabs_select: { tabId: 3 },
      tabs_close: { tabId: 3 },
      page_ask_user: { message: 'Sign in, please.' },
    };
    for (const t of CLIENT_TOOLS) {
      const r = parsePageToolCall(t.name, smallest[t.name] ?? {});
      expect(r.ok, t.name).toBe(true);
      if (!(t.name in smallest)) {
        expect(parsePageToolCall(t.name, undefined).ok, t.name).toBe(true);
        expect(parsePageToolCall(t.name, null).ok, t.name).toBe(true);
      }
    }
  });

  it('lets every page_* tool, a new one included, name a tab of the task, and keeps the tab apart from the arguments', () => {
    for (const t of CLIENT_TOOLS) {
      const schema = JSON.stringify(t.inputSchema);
      // page_ask_user asks in the conversation's panel, on no other tab.
      if (t.name.startsWith('page_') && t.name !== 'page_ask_user') expect(schema, t.name).toContain('"tabId"');
    }
    expect(refusal('page_ask_user', { message: 'Sign in.', tabId: 7 })).toMatch(/page_ask_user got arguments/);
    const r = parsePageToolCall('page_click', { ref: 'e1', tabId: 7 });
    expect(r).toEqual({ ok: true, call: { tool: 'page_click', args: { ref: 'e1' } }, tabId: 7 });
    expect(parsePageToolCall('page_read', {})).toEqual({ ok: true, call: { tool: 'page_read', args: {} } });
    expect(refusal('page_read', { tabId: 'next' })).toMatch(/\(tabId: /);
    // tabs_select names its tab as its own argument; tabs_list takes none.
    expect(parsePageToolCall('tabs_select', { tabId: 7 })).toEqual({
      ok: true,
      call: { tool: 'tabs_select', args: { tabId: 7 } },
    });
    expect(refusal('tabs_list', { tabId: 7 })).toMatch(/tabs_list got arguments it cannot use/);
  });

  it('names a tool it does not have', () => {
    expect(refusal('bash', {})).toBe('The extension has no tool named "bash".');
    expect(refusal('__proto__', {})).toBe('The extension has no tool named "__proto__".');
    expect(refusal('toString', {})).toBe('The extension has no tool named "toString".');
  });

  it('names the argument that is wrong and says to check the schema', () => {
    expect(refusal('page_click', { ref: 42 })).toMatch(
      /^page_click got arguments it cannot use \(ref: .+\)\. Check the tool's schema and call again\.$/,
    );
    expect(refusal('page_click', { ref: 'button#buy' })).toMatch(
      /ref: a ref from the latest page_snapshot, like "e12"/,
    );
    expect(refusal('page_click', {})).toMatch(/\(ref: /);
    expect(refusal('page_fill_form', { fields: [{ ref: 'e1', value: 'a' }, { ref: 'x' }] })).toMatch(
      /fields\.1\.ref: .*; fields\.1\.value: /,
    );
    expect(refusal('page_click', { ref: 'e1', selector: '#buy' })).toMatch(/arguments: Unrecognized key: "selector"/);
    expect(refusal('page_snapshot', 'everything')).toMatch(/\(arguments: /);
    expect(refusal('page_wait', { ms: PAGE_WAIT_MAX_MS + 1 })).toMatch(/ms: /);
    expect(refusal('page_fill_form', { fields: [] })).toMatch(/fields: /);
  });

  it('clamps page_read maxChars into its range instead of refusing it', () => {
    const maxChars = (v: unknown) => {
      const r = parsePageToolCall('page_read', { maxChars: v });
      return r.ok && r.call.tool === 'page_read' ? r.call.args.maxChars : 'refused';
    };
    expect(maxChars(5)).toBe(1000);
    expect(maxChars(-3)).toBe(1000);
    expect(maxChars(1e12)).toBe(PAGE_READ_MAX_CHARS);
    expect(maxChars(4321.9)).toBe(4321);
    expect(maxChars(Number.POSITIVE_INFINITY)).toBe('refused');
    expect(maxChars('lots')).toBe('refused');
  });

  it('takes a ref on page_read to read one element whole, and refuses a ref of another shape', () => {
    const r = parsePageToolCall('page_read', { ref: 'f3e12', maxChars: 5000 });
    expect(r.ok && r.call.tool === 'page_read' ? r.call.args : undefined).toEqual({ ref: 'f3e12', maxChars: 5000 });
    expect(refusal('page_read', { ref: '#bio' })).toMatch(/ref: a ref from the latest page_snapshot/);
  });

  it('accepts refs of the tab and of a frame, and no other shape', () => {
    for (const ref of ['e1', 'e12345', 'f7e3']) expect(parsePageToolCall('page_hover', { ref }).ok, ref).toBe(true);
    for (const ref of ['', 'e', '12', 'E1', 'e1 ', 'e1]', '[ref=e1]', 'f7', 'e-1'])
      expect(parsePageToolCall('page_hover', { ref }).ok, ref).toBe(false);
  });

  test.prop([fc.oneof(fc.constantFrom(...Object.keys(TOOL_CLASSES)), fc.string()), fc.anything()])(
    'never throws, and parses only the tools it declares',
    (tool, args) => {
      const r = parsePageToolCall(tool, args);
      if (r.ok) expect(PAGE_TOOL_NAMES.has(r.call.tool) && r.call.tool === tool).toBe(true);
      else expect(r.error).toMatch(/\S/);
    },
  );

  test.prop([
    fc.constantFrom(...Object.keys(TOOL_CLASSES)),
    fc.dictionary(
      fc.constantFrom('ref', 'text', 'url', 'key', 'values', 'fields', 'maxChars', 'ms', 'dy', 'from'),
      fc.anything(),
    ),
  ])('answers any object of plausible argument names with a call or an error naming the tool', (tool, args) => {
    const r = parsePageToolCall(tool, args);
    if (!r.ok) expect(r.error.startsWith(`${tool} got arguments it cannot use (`)).toBe(true);
  });
});
