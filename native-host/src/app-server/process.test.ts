/** A real `tether app-server` process: crash recovery after `kill -9`, clean exit on EOF, and the debug command. */
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from './testing/process-client';
import { tetherCommand } from './testing/server-command';
import { escapingCommand, survivorsAfter, useSleeps, waitForSleepers } from '../testing/orphans';

const dirs: string[] = [];
const procs: ServerProcess[] = [];
const testSleeps = useSleeps();
afterEach(() => {
  for (const p of procs.splice(0)) p.child.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tether-proc-'));
  dirs.push(dir);
  return dir;
}

/** Starts a `/bash COMMAND` turn and allows the command. */
async function runCommand(p: ServerProcess, command: string): Promise<void> {
  p.client.handle('approval/request', () => ({ decision: 'allow' }));
  const { thread } = await p.client.threadStart({ title: 'command' });
  await p.client.turnStart({ threadId: thread.id, input: [{ text: `/bash ${command}` }] });
}

/** The exit code or signal of `p`, or a failure naming the deadline when it is still running then. */
function exitWithin(p: ServerProcess, deadlineMs: number): Promise<number | NodeJS.Signals> {
  return Promise.race([
    p.exited,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`the server was still running ${deadlineMs} ms later`)), deadlineMs).unref(),
    ),
  ]);
}

async function start(dataDir: string): Promise<ServerProcess> {
  const p = await spawnServer(['--data-dir', dataDir]);
  procs.push(p);
  return p;
}

describe('a real app-server process', () => {
  it('after kill -9 keeps every completed item and the answer as far as it was sent, skips a torn line and marks the running turn interrupted', async () => {
    const dataDir = tempDir();
    const first = await start(dataDir);
    const { thread } = await first.client.threadStart({ title: 'survivor' });
    const t1 = await first.client.turnStart({ threadId: thread.id, input: [{ text: '/stream 5' }] });
    await first.rec.waitFor('turn/completed', (p) => p.turn.id === t1.turn.id);
    const t2 = await first.client.turnStart({ threadId: thread.id, input: [{ text: '/stream 100000 5' }] });
    // Enough text that some of it is journaled: streamed text is journaled in chunks a secret cannot straddle, each
    // followed by at least 256 characters (see PendingStream), so the last few hundred sent may be lost.
    await first.rec.waitFor('item/agentMessage/delta', (p) => p.turnId === t2.turn.id && p.delta === '300 ');
    const completedBeforeKill = first.rec.all('item/completed').map((n) => n.item);
    first.child.kill('SIGKILL');
    const seen = first.rec
      .all('item/agentMessage/delta')
      .filter((n) => n.turnId === t2.turn.id)
      .map((n) => n.delta)
      .join('');
    expect(await first.exited).toBe('SIGKILL');

    const journal = join(dataDir, 'threads', `${thread.id}.jsonl`);
    appendFileSync(journal, '{"type":"item","item":{"id":"torn","type":"agentMe');

    const second = await start(dataDir);
    const read = await second.client.threadRead({ threadId: thread.id });
    expect(read.thread).toMatchObject({ id: thread.id, title: 'survivor', status: 'idle' });
    expect(read.items.slice(0, 3)).toEqual(completedBeforeKill);
    expect(read.items.map((i) => [i.type, i.turnId])).toEqual([
      ['userMessage', t1.turn.id],
      ['agentMessage', t1.turn.id],
      ['userMessage', t2.turn.id],
      ['agentMessage', t2.turn.id],
    ]);
    // The answer as far as its last journaled chunk is kept (and nothing else): a prefix of what the client saw, cut
    // after a whole number, "1 2 3 " and on in order.
    const partial = read.items[3]!;
    expect(partial.content).toEqual({ text: expect.stringMatching(/^1 2 3 (\d+ )*$/) });
    const kept = (partial.content as { text: string }).text;
    expect(seen.startsWith(kept)).toBe(true);
    const numbers = kept.trim().split(' ').map(Number);
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    expect(read.unfinishedTurns?.map((t) => [t.id, t.status])).toEqual([[t2.turn.id, 'interrupted']]);
    // The torn fragment stays where it was (readers never rewrite a shared file); later records start on a new line.
    const lines = readFileSync(journal, 'utf8').trim().split('\n');
    expect(lines.filter((l) => l.startsWith('{"type":"item","item":{"id":"torn"'))).toEqual([
      '{"type":"item","item":{"id":"torn","type":"agentMe',
    ]);
    const records = lines
      .filter((l) => !l.includes('"id":"torn"'))
      .map((l) => JSON.parse(l) as { type: string; turn?: { id: string; status: string } });
    expect(records.filter((r) => r.type === 'turn' && r.turn!.id === t2.turn.id).map((r) => r.turn!.status)).toEqual([
      'running',
      'interrupted',
    ]);
    expect((await second.client.threadList({})).threads.map((t) => t.id)).toEqual([thread.id]);

    const t3 = await second.client.turnStart({ threadId: thread.id, input: [{ text: '/stream 2' }] });
    expect((await second.rec.waitFor('turn/completed', (p) => p.turn.id === t3.turn.id)).turn.status).toBe('completed');
    expect((await second.client.threadRead({ threadId: thread.id })).items).toHaveLength(6);
  });

  it('exits with code 0 when its stdin ends, journaling the end of a running turn', async () => {
    const dataDir = tempDir();
    const p = await start(dataDir);
    const { thread } = await p.client.threadStart({ title: 'eof' });
    const { turn } = await p.client.turnStart({ threadId: thread.id, input: [{ text: '/stream 100000 5' }] });
    await p.rec.waitFor('item/agentMessage/delta', (n) => n.turnId === turn.id);
    p.child.stdin.end();
    expect(await p.exited).toBe(0);
    const journal = readFileSync(join(dataDir, 'threads', `${thread.id}.jsonl`), 'utf8');
    expect(journal).toContain('"status":"interrupted"');
    expect(p.stderr()).toContain('serving on stdio');
  });

  it.runIf(process.platform === 'linux')(
    'leaves no process of a running command alive after the server is SIGKILLed: grandchildren, subshell jobs, setsid, nohup and double-forked ones',
    async () => {
      const p = await start(tempDir());
      const sleeps = testSleeps.five();
      await runCommand(p, escapingCommand(sleeps));
      await waitForSleepers(sleeps);
      p.child.kill('SIGKILL');
      expect(await p.exited).toBe('SIGKILL');
      expect(await survivorsAfter(sleeps)).toEqual([]);
    },
  );

  it.runIf(process.platform === 'linux').each([
    ['stdin EOF', (p: Awaited<ReturnType<typeof start>>) => p.child.stdin.end()],
    ['SIGTERM', (p: Awaited<ReturnType<typeof start>>) => p.child.kill('SIGTERM')],
  ])(
    'exits on %s while a command runs and a detached process it started holds the output pipe, killing them all',
    async (_, stop) => {
      const p = await start(tempDir());
      const sleeps = testSleeps.five().slice(0, 2);
      await runCommand(p, `setsid sleep ${sleeps[1]} & sleep ${sleeps[0]}`);
      await waitForSleepers(sleeps);
      stop(p);
      expect(await exitWithin(p, 10_000)).toBe(0);
      expect(await survivorsAfter(sleeps)).toEqual([]);
    },
  );

  it('masks the secrets it knows in its stderr log, as the host does in host.log', async () => {
    const secret = 'kept-out-of-logs-9f3a1c';
    const dataDir = join(tempDir(), `data-${secret}`);
    const p = await spawnServer(['--data-dir', dataDir], { MY_SERVICE_API_KEY: secret });
    procs.push(p);
    p.child.stdin.end();
    await p.exited;
    expect(p.stderr()).toContain('serving on stdio; data ');
    expect(p.stderr()).toContain('data-***');
    expect(p.stderr()).not.toContain(secret);
  });

  it('prints every message of one scripted turn for `tether debug app-server send-message`', async () => {
    const [command, ...prefix] = await tetherCommand();
    const r = spawnSync(command!, [...prefix, 'debug', 'app-server', 'send-message', 'hello'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines.every((l) => l.startsWith('> ') || l.startsWith('< '))).toBe(true);
    const messages = lines.map((l) => ({
      dir: l[0],
      msg: JSON.parse(l.slice(2)) as { method?: string; result?: unknown },
    }));
    expect(messages[0]).toMatchObject({ dir: '>', msg: { method: 'initialize' } });
    expect(messages.map((m) => m.msg.method).filter(Boolean)).toEqual(
      expect.arrayContaining([
        'initialized',
        'thread/start',
        'turn/start',
        'turn/started',
        'item/agentMessage/delta',
        'item/completed',
        'turn/completed',
        'thread/read',
      ]),
    );
  });
});
