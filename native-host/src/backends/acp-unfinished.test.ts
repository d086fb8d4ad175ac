import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clientRequests } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import { scriptedAgent } from '../testing/acp-client';

describe('an ACP turn that did not finish', () => {
  it('reads back marked unfinished beside its partial answer when the agent is SIGKILLed mid-answer, after a restart, and after the next', async () => {
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
    // The adapter whose agent died closes once it has ended the turn, so a read through it races that close (and no
    // client reads there: the host starts the agent again). Each later start reads the journal the same way.
    for (const answer of [
      await read((await startedAgain(dataDir)).client),
      await read((await startedAgain(dataDir)).client),
    ]) {
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
