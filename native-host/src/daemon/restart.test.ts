/** The daemon's built-in app-server across browser connections: a restart from one browser, a config edit. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lineClient, useDaemonSandboxes } from '../testing/daemon';

const sandbox = useDaemonSandboxes();

type Box = ReturnType<typeof sandbox>;

async function browser(box: Box, name: string) {
  const client = lineClient(await box.connect());
  await client.request('initialize', { clientInfo: { name, version: '1' } });
  client.send({ method: 'initialized' });
  return client;
}

describe('the daemon, restarting the built-in app-server (bridge/backend/restart)', () => {
  it("refuses while another browser's turn runs, and replaces the engine for the browser whose turn it is", async () => {
    const box = sandbox();
    await box.run('--idle-exit', '60');
    const one = await browser(box, 'one');
    const threadId: string = (await one.request('thread/start', { title: 'restart' })).result.thread.id;
    const turnId: string = (await one.request('turn/start', { threadId, input: [{ text: '/bash sleep 30' }] })).result
      .turn.id;
    await one.waitFor((m) => m.method === 'approval/request');

    const other = await browser(box, 'other');
    const refused = await other.request('bridge/backend/restart');
    expect(refused.error).toMatchObject({
      code: -32022,
      message: expect.stringContaining('was not restarted: 1 turn(s) run on it that this browser does not follow'),
      data: { backend: 'embedded', runningTurns: 1 },
    });
    // Nothing was stopped: the other browser goes on, and the turn still waits for its approval.
    expect((await other.request('thread/list', {})).result.threads).toMatchObject([{ id: threadId }]);
    expect(one.messages.some((m) => m.method === 'turn/completed')).toBe(false);

    expect((await one.request('bridge/backend/restart')).result).toEqual({ backend: 'embedded' });
    expect(
      one.messages.find((m) => m.method === 'turn/completed' && m.params.turn.id === turnId)?.params.turn,
    ).toMatchObject({ status: 'interrupted' });
    const exited = await other.waitFor((m) => m.method === 'bridge/backend/exited');
    expect(exited.params.message).toContain("restarted for every browser (restarted at the browser's request)");
    // Both go on over the new engine, which read the turn's end from the journal.
    await one.request('initialize', { clientInfo: { name: 'one', version: '1' } });
    const read = await one.request('thread/read', { threadId });
    expect(read.result.unfinishedTurns).toMatchObject([{ id: turnId, status: 'interrupted' }]);
    await other.request('initialize', { clientInfo: { name: 'other', version: '1' } });
    expect((await other.request('thread/list', {})).result.threads).toMatchObject([{ id: threadId, status: 'idle' }]);
  });

  it('serves the next connection with the config file as edited since', async () => {
    const box = sandbox();
    const config = join(box.dir, 'config.json');
    const writeConfig = (model: string) =>
      writeFileSync(config, JSON.stringify({ backends: { embedded: { kind: 'embedded', model } } }));
    writeConfig('scripted');
    box.env['TETHER_CONFIG'] = config;
    await box.run('--idle-exit', '60');
    const before = await browser(box, 'before');
    expect((await before.request('thread/start', {})).result.thread.model).toBe('scripted');
    before.close();

    writeConfig('gpt-edited');
    const after = await browser(box, 'after');
    expect((await after.request('thread/start', {})).result.thread.model).toBe('gpt-edited');
  });
});
