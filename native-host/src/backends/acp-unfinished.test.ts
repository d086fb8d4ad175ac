import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clientRequests } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import { scriptedAgent } from '../testing/acp-client';

describe('an ACP turn that did not finish', () => {
  it('reads back marked unfinished beside its partial answer when the agent is SIGKILLed mid-answer, before and after a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tether-acp-'));
    const a = scriptedAgent(dataDir);
    await a.init();
    const thread = await a.startThread();
    const t = await a.turn(thread.id, 'slow');
    await a.waitFor('item/agentMessage/delta', () => true, t.from);
    a.child.kill('SIGKILL');
    expect((await t.done()).turn).toMatchObject({ status: 'failed' });
    const read = async (client: typeof a.client) =>
      clientRequests['thread/read'].result.parse(await client.request('thread/read', { threadId: thread.id }));
    for (const answer of [await read(a.client), await read((await startedAgain(dataDir)).client)]) {
      expect(answer.items.map((i) => i.type)).toEqual(['userMessage', 'agentMessage']);
      expect(answer.unfinishedTurns).toEqual([
        expect.objectContaining({ id: t.turnId, status: 'failed', error: expect.objectContaining({}) }),
      ]);
    }
  });
});

async function startedAgain(dataDir: string) {
  const b = scriptedAgent(dataDir);
  await b.init();
  return b;
}
