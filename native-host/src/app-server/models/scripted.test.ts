/** The scripted model's welcome, through a real app-server engine and client. */
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, runTurn, type Harness } from '../testing/harness';

let harness: Harness;
afterEach(async () => harness.dispose());

describe('the scripted model', () => {
  it('answers plain text with its commands and points to the options page for a real model, not to variables', async () => {
    harness = createHarness({ persistent: false });
    const tc = await harness.connect({});
    const { thread } = await tc.client.threadStart({ title: 'welcome' });
    const { items, turn } = await runTurn(tc, thread.id, 'hello there');
    expect(turn.status).toBe('completed');
    const text = JSON.stringify(items.at(-1)?.content);
    expect(text).toContain('You said: \\"hello there\\"');
    expect(text).toContain('/stream N');
    expect(text).toContain("Tether's options");
    expect(text).toContain('Model section');
    expect(text).not.toContain('TETHER_OPENAI');
  });

  it('streams /stream N delayMs M as M messages, each finished before the next, the numbers going on across them', async () => {
    harness = createHarness({ persistent: false });
    const tc = await harness.connect({});
    const { thread } = await tc.client.threadStart({ title: 'parts' });
    const { items, turn } = await runTurn(tc, thread.id, '/stream 10 0 3');
    expect(turn.status).toBe('completed');
    const answers = items.filter((item) => item.type === 'agentMessage');
    expect(answers.map((item) => item.status)).toEqual(['completed', 'completed', 'completed']);
    expect(answers.map((item) => JSON.stringify(item.content))).toEqual([
      JSON.stringify({ text: '1 2 3 ' }),
      JSON.stringify({ text: '4 5 6 7 ' }),
      JSON.stringify({ text: '8 9 10 ' }),
    ]);
  });
});
