/**
 * `tether host` as a real process serving the embedded reference app-server with the scripted model: the path a
 * browser takes when nothing is configured.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  escapingCommand,
  sleepers,
  survivorsAfter,
  useSleeps,
  waitForSleepers,
} from '../../native-host/src/testing/orphans';
import { stopDaemonIn } from '../support/daemons';
import { expectWholeAnswer } from './answer-checks';
import { deltaText, type HostProcess, isAlive, type Msg, startHost } from './host-process';

const hosts: HostProcess[] = [];
const testSleeps = useSleeps();
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.dispose();
});

async function initializedHost(env: Record<string, string> = {}): Promise<{ h: HostProcess; threadId: string }> {
  const h = startHost({ env });
  hosts.push(h);
  const init = await h.request('initialize', { clientInfo: { name: 'host-test', version: '1' } });
  expect(init.result.serverInfo).toBeDefined();
  h.send({ method: 'initialized' });
  const started = await h.request('thread/start', { title: 'host test' });
  expect(started.result.thread.id).toEqual(expect.any(String));
  return { h, threadId: started.result.thread.id as string };
}

const completedTurn = (threadId: string) => (m: Msg) =>
  m.method === 'turn/completed' && (m.params.threadId ?? m.params.turn?.threadId) === threadId;

describe('tether host with the embedded app-server', () => {
  it('initializes, starts a thread and streams a scripted turn as deltas', async () => {
    const { h, threadId } = await initializedHost();
    await h.waitFor((m) => m.method === 'thread/started');
    const from = h.messages.length;
    const turn = await h.request('turn/start', { threadId, input: [{ text: '/stream 5' }] });
    expect(turn.result.turn.status).toBe('running');
    const done = await h.waitFor(completedTurn(threadId), 10_000, from);
    expect(done.params.turn.status).toBe('completed');
    const deltas = h.messages.slice(from).filter((m) => m.method === 'item/agentMessage/delta');
    expect(deltas.map((m) => m.params.delta).join('')).toBe('1 2 3 4 5 ');
  });

  it('carries an approval round trip: approval/request out, the decision back, the command runs', async () => {
    const { h, threadId } = await initializedHost();
    const from = h.messages.length;
    await h.request('turn/start', { threadId, input: [{ text: '/bash echo hi' }] });
    const ask = await h.waitFor((m) => m.method === 'approval/request' && m.id !== undefined, 10_000, from);
    expect(ask.params.toolName).toBe('bash');
    expect(ask.params.choices).toContain('allow');
    h.send({ id: ask.id, result: { decision: 'allow' } });
    await h.waitFor(completedTurn(threadId), 15_000, from);
    const tool = h.messages.slice(from).find((m) => m.method === 'item/completed' && m.params.item.type === 'toolCall');
    expect(JSON.stringify(tool?.params.item.content.result)).toContain('hi');
    const text = deltaText(h, from);
    expect(text).toContain('Ran `echo hi`');
  });

  it('delivers a /big 3000000 answer whose 3 MB item arrives as bridge/chunk pieces and reassembles byte for byte', async () => {
    const { h, threadId } = await initializedHost();
    const from = h.messages.length;
    await h.request('turn/start', { threadId, input: [{ text: '/big 3000000' }] });
    await h.waitFor(completedTurn(threadId), 30_000, from);
    const completed = expectWholeAnswer(h, from, 3_000_000);
    expect(h.chunkedTexts.length).toBeGreaterThanOrEqual(1);
    const reassembled = JSON.parse(h.chunkedTexts.at(-1)!) as Msg;
    expect(reassembled).toEqual(completed);
  });

  /** Starts `/bash` with five sleepers escaping in every way, allows it, and waits for all five to run. */
  async function escapingBash(h: HostProcess, threadId: string): Promise<[string, string, string, string, string]> {
    const sleeps = testSleeps.five();
    const from = h.messages.length;
    await h.request('turn/start', { threadId, input: [{ text: `/bash ${escapingCommand(sleeps)}` }] });
    const ask = await h.waitFor((m) => m.method === 'approval/request' && m.id !== undefined, 10_000, from);
    h.send({ id: ask.id, result: { decision: 'allow' } });
    await waitForSleepers(sleeps);
    return sleeps;
  }

  it.runIf(process.platform === 'linux')(
    'in-process (TETHER_DAEMON=0), leaves no process of a running bash command alive after the host is SIGKILLed: grandchildren, subshell jobs, setsid, nohup and double-forked ones',
    async () => {
      const { h, threadId } = await initializedHost({ TETHER_DAEMON: '0' });
      const sleeps = await escapingBash(h, threadId);
      h.child.kill('SIGKILL');
      expect((await h.exited).signal).toBe('SIGKILL');
      expect(await survivorsAfter(sleeps)).toEqual([]);
    },
  );

  it.runIf(process.platform === 'linux')(
    'through the daemon, keeps a bash command running after the host is SIGKILLed, and leaves none of its processes once the daemon stops',
    async () => {
      const { h, threadId } = await initializedHost({ TETHER_DAEMON: '1' });
      const sleeps = await escapingBash(h, threadId);
      h.child.kill('SIGKILL');
      expect((await h.exited).signal).toBe('SIGKILL');
      // The turn is the daemon's: the browser's host going away ends none of it.
      await new Promise((r) => setTimeout(r, 1000));
      expect(sleepers(sleeps)).toHaveLength(5);
      await stopDaemonIn(`${h.dir}/run`);
      expect(await survivorsAfter(sleeps)).toEqual([]);
    },
  );

  it('exits within 2 s of stdin EOF while a turn is streaming', async () => {
    const { h, threadId } = await initializedHost();
    await h.request('turn/start', { threadId, input: [{ text: '/stream 100000 5' }] });
    await h.waitFor((m) => m.method === 'item/agentMessage/delta');
    const t0 = performance.now();
    h.closeInput();
    const exit = await h.exited;
    expect(exit.code).toBe(0);
    expect(exit.at - t0).toBeLessThan(2000);
    expect(isAlive(h.child.pid!)).toBe(false);
  });
});
