import type { ToolCallItem } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import { outputText, summaryLine } from './tool-card';

function call(
  toolName: string,
  args: unknown,
  status: ToolCallItem['status'] = 'completed',
  extra: Partial<ToolCallItem['content']> = {},
): ToolCallItem {
  return { id: 'i1', type: 'toolCall', status, createdAtMs: 0, content: { toolName, arguments: args, ...extra } };
}

/** page_read's result as the extension returns it (background/page-tools/page-tools.ts). */
const PAGE_RESULT = [{ type: 'text', text: 'URL: https://example.com/a/b?c=1\nTitle: Example\n\nSome page text.' }];

describe('summaryLine', () => {
  it('names the tool and the command it runs', () => {
    expect(summaryLine(call('bash', { command: 'ls -la' }))).toBe('bash: ls -la');
  });

  it("joins Codex's argv command as one would type it", () => {
    expect(summaryLine(call('shell', { command: ['bash', '-lc', 'ls'], cwd: '/tmp' }))).toBe('shell: bash -lc ls');
  });

  it("names the page's host for page_read, from the URL line of its result", () => {
    expect(summaryLine(call('page_read', {}, 'completed', { result: PAGE_RESULT }))).toBe('page_read: example.com');
  });

  it('names what page_ask_user asked the user, whatever the reply', () => {
    const asked = call('page_ask_user', { message: 'Please sign in.', answer: 'the code' }, 'completed', {
      result: [{ type: 'text', text: 'The user clicked "Done".' }],
    });
    expect(summaryLine(asked)).toBe('page_ask_user: Please sign in.');
  });

  it('shows the bare tool name when nothing says what it acts on, never `{}`', () => {
    const line = summaryLine(call('tabs_list', {}));
    expect(line).toBe('tabs_list');
    expect(line).not.toContain('{}');
  });

  it('keeps a multi-line command on one line', () => {
    expect(summaryLine(call('bash', { command: 'echo a\n  echo b' }))).toBe('bash: echo a echo b');
  });

  it('says a running call is running', () => {
    expect(summaryLine(call('bash', { command: 'sleep 1' }, 'inProgress'))).toBe('bash: sleep 1 (running…)');
  });

  it('gives the reason of a declined or failed call in the line', () => {
    const declined = call('bash', { command: 'rm x' }, 'declined', { error: 'The user declined.' });
    expect(summaryLine(declined)).toBe('bash: rm x — declined: The user declined.');
    const failed = call('page_read', {}, 'failed', { error: 'No tab is bound.' });
    expect(summaryLine(failed)).toBe('page_read — failed: No tab is bound.');
  });

  it('falls back to the first string argument of an unknown tool', () => {
    expect(summaryLine(call('fetch_issue', { repo: 'a/b', number: 3 }))).toBe('fetch_issue: a/b');
  });
});

describe('outputText', () => {
  it("shows bash's output as terminal text, not as a JSON string", () => {
    const text = outputText({ exitCode: 0, output: 'hello\nworld\n', truncated: false, timedOut: false });
    expect(text).toBe('hello\nworld');
  });

  it('notes a non-zero exit code, a time-out and a cut output under the output', () => {
    const text = outputText({ exitCode: 2, output: 'oops\n', truncated: true, timedOut: true });
    expect(text).toBe('oops\n[output cut at the size limit]\n[timed out]\n[exit code 2]');
  });

  it("reads Codex's shell result the same way", () => {
    expect(outputText({ output: 'a.txt\n', exitCode: 0, durationMs: 12 })).toBe('a.txt');
  });

  it('says when a command printed nothing', () => {
    expect(outputText({ exitCode: 0, output: '', truncated: false, timedOut: false })).toBe('(no output)');
  });

  it('shows page text as text', () => {
    expect(outputText(PAGE_RESULT)).toBe(PAGE_RESULT[0]?.text);
  });

  it('names images instead of printing their data', () => {
    expect(outputText([{ type: 'image', mimeType: 'image/png', data: 'AAAA' }])).toBe('[image image/png]');
  });

  it('reads `{content: [...]}` results as their text', () => {
    expect(outputText({ content: [{ type: 'text', text: 'done' }] })).toBe('done');
  });

  it('shows nothing for empty results, never `{}`', () => {
    for (const empty of [{}, [], null, undefined, '']) expect(outputText(empty)).toBeUndefined();
  });

  it('shows other data as indented JSON', () => {
    expect(outputText({ ok: true })).toBe('{\n  "ok": true\n}');
  });
});
