/** The scripted model's `/tool NAME {json}` and `/tools`, through a real app-server engine and client. */
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, runTurn, type Harness, type TestClient } from '../testing/harness';
import { describeToolOutcome, parseToolCommand } from './tool-command';

const snapshotTool = {
  name: 'page_snapshot',
  description: 'An accessibility snapshot of the page.\nRefs tag actionable nodes.',
  inputSchema: { type: 'object', properties: { from: { type: 'string' } } },
};
const clickTool = {
  name: 'page_click',
  description: 'Clicks an element by ref.',
  inputSchema: { type: 'object', properties: { ref: { type: 'string' } }, required: ['ref'] },
};

let harness: Harness;
afterEach(async () => harness.dispose());

async function setup(): Promise<{ tc: TestClient; threadId: string }> {
  harness = createHarness({ persistent: false });
  const tc = await harness.connect({ clientTools: [snapshotTool, clickTool] });
  const { thread } = await tc.client.threadStart({ title: 'tool' });
  return { tc, threadId: thread.id };
}

const lastText = (items: { content: unknown }[]): string => (items.at(-1)!.content as { text: string }).text;

describe('/tool', () => {
  it('calls a client tool with the JSON arguments and shows its text whole in a fenced block', async () => {
    const { tc, threadId } = await setup();
    const calls: unknown[] = [];
    const snapshot =
      '- heading "Checkout" [level=1]\n- button "Place order" [ref=e12]\n- textbox "Email" [ref=e3]: a_b*c';
    tc.client.handle('item/tool/call', (p) => {
      calls.push(p);
      return { success: true, content: [{ type: 'text', text: snapshot }] };
    });
    const { items, turn } = await runTurn(tc, threadId, '/tool page_snapshot {"from": "e3"}');
    expect(turn.status).toBe('completed');
    expect(calls).toEqual([expect.objectContaining({ tool: 'page_snapshot', arguments: { from: 'e3' } })]);
    expect(items.map((i) => i.type)).toEqual(['userMessage', 'toolCall', 'agentMessage']);
    expect(items[1]).toMatchObject({ status: 'completed', content: { toolName: 'page_snapshot', status: 'success' } });
    expect(lastText(items)).toBe(`\`page_snapshot\` completed:\n\n\`\`\`\n${snapshot}\n\`\`\``);
  });

  it('sends {} when no arguments follow the name, and keeps JSON that spans lines', async () => {
    const { tc, threadId } = await setup();
    const args: unknown[] = [];
    tc.client.handle('item/tool/call', (p) => {
      args.push(p.arguments);
      return { success: true, content: [{ type: 'text', text: 'ok' }] };
    });
    await runTurn(tc, threadId, '/tool page_snapshot');
    await runTurn(tc, threadId, '/tool page_click {\n  "ref": "f7e3"\n}');
    expect(args).toEqual([{}, { ref: 'f7e3' }]);
  });

  it('says clearly when a client tool failed, with its error', async () => {
    const { tc, threadId } = await setup();
    tc.client.handle('item/tool/call', () => ({
      success: false,
      content: [{ type: 'text', text: 'Ref e99 is stale: the page changed. Take a new page_snapshot.' }],
    }));
    const { items } = await runTurn(tc, threadId, '/tool page_click {"ref": "e99"}');
    expect(items[1]).toMatchObject({ status: 'failed' });
    expect(lastText(items)).toBe(
      '`page_click` failed:\n\n```\nRef e99 is stale: the page changed. Take a new page_snapshot.\n```',
    );
  });

  it('runs the built-in bash through its approval, and says so when the user declines', async () => {
    const { tc, threadId } = await setup();
    const decisions: ('allow' | 'deny')[] = ['allow', 'deny'];
    tc.client.handle('approval/request', () => ({ decision: decisions.shift()! }));
    const ran = await runTurn(tc, threadId, '/tool bash {"command": "echo from-tool"}');
    expect(lastText(ran.items)).toMatch(/^`bash` completed:\n\n```\n[\s\S]*from-tool[\s\S]*\n```$/);
    const declined = await runTurn(tc, threadId, '/tool bash {"command": "echo never"}');
    expect(lastText(declined.items)).toBe(
      '`bash` was declined, so it did not run: The user denied this tool call. Do not retry it without asking the user.',
    );
  });

  it('answers bad usage without calling anything or failing the turn', async () => {
    const { tc, threadId } = await setup();
    let called = 0;
    tc.client.handle('item/tool/call', () => {
      called++;
      return { success: true, content: [] };
    });
    const replies: string[] = [];
    for (const input of [
      '/tool',
      '/tool page_click {"ref": e3}',
      '/tool page_click ["e3"]',
      '/tool page_click "e3"',
      '/tool page_clik {"ref": "e3"}',
    ]) {
      const { items, turn } = await runTurn(tc, threadId, input);
      expect(turn.status).toBe('completed');
      replies.push(lastText(items));
    }
    expect(called).toBe(0);
    expect(replies[0]).toBe(
      'Usage: `/tool NAME {json arguments}`. Available tools: `bash`, `page_snapshot`, `page_click`.',
    );
    expect(replies[1]).toMatch(
      /^The arguments of `page_click` are not valid JSON \(.+\)\. Write them as one JSON object/,
    );
    expect(replies[2]).toBe('The arguments of `page_click` must be a JSON object (`{...}`), not an array.');
    expect(replies[3]).toBe('The arguments of `page_click` must be a JSON object (`{...}`), not a string.');
    expect(replies[4]).toBe('There is no tool `page_clik`. Available tools: `bash`, `page_snapshot`, `page_click`.');
  });
});

describe('/tools', () => {
  it('lists the built-in and the client tools with the first line of their descriptions', async () => {
    const { tc, threadId } = await setup();
    const { items } = await runTurn(tc, threadId, '/tools');
    const text = lastText(items);
    expect(text).toContain('- `page_snapshot` (client): An accessibility snapshot of the page.\n');
    expect(text).toContain('- `page_click` (client): Clicks an element by ref.');
    expect(text).toMatch(/- `bash` \(built-in\): /);
    expect(text).not.toContain('Refs tag actionable nodes');
  });
});

describe('parseToolCommand and describeToolOutcome', () => {
  it('fences a result with a fence longer than any backtick run inside it', () => {
    const text = 'code: ```js\nx\n``` and ````';
    expect(describeToolOutcome('page_read', { status: 'completed', text })).toBe(
      `\`page_read\` completed:\n\n\`\`\`\`\`\n${text}\n\`\`\`\`\``,
    );
  });

  it('says a tool that returned nothing completed with no output', () => {
    expect(describeToolOutcome('page_reload', { status: 'completed', text: '' })).toBe(
      '`page_reload` completed with no output.',
    );
  });

  it('lists no tools when the turn has none', () => {
    expect(parseToolCommand('page_click {}', [])).toEqual({
      usage: 'There is no tool `page_click`. No tools are available in this turn.',
    });
  });
});
