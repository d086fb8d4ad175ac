/**
 * The real `codex app-server` (npm @openai/codex, pinned) in the daemon, shared by the browser connections, against a
 * mock Responses API: a turn outlives the browser that started it, what Codex asks of the browser meanwhile waits for
 * a new one that follows the thread, and two browsers following two threads each see only their own. A Codex killed
 * mid-answer leaves the answer the browser saw in the thread's history, once, marked unfinished.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentSuite, tempDir } from '../agents/agent-host';
import { CODEX_PACKAGE } from '../support/agents-cache';
import { lastUserText, startMockResponsesApi, writeCodexHome } from '../support/mock-responses-api';
import { waitUntil } from './daemon-env';
import { runningTurns, sharedBackendTests } from './shared-backend-env';

const codex = agentSuite('codex', CODEX_PACKAGE, startMockResponsesApi, (mock) =>
  writeCodexHome(tempDir('codex-home'), mock.origin),
);
const { daemonWith, browser, turnLeftRunning, followAgain, pageReadAnsweredOnReturn } = sharedBackendTests();

const codexBackend = () => ({
  argv: [codex.bin, 'app-server'],
  cwd: codex.workDir,
  dialect: 'codex',
  env: { CODEX_HOME: codex.home, RUST_LOG: 'error' },
});

/** The pid of the daemon's `codex app-server` child. */
function codexPid(daemonPid: number): number {
  const children = readdirSync(`/proc/${daemonPid}/task`).flatMap((t) =>
    readFileSync(`/proc/${daemonPid}/task/${t}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number),
  );
  const pid = children.find((p) => readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('app-server'));
  if (pid === undefined) throw new Error(`the daemon (pid ${daemonPid}) runs no codex app-server`);
  return pid;
}

/** 1 to 600: an answer long enough to be cut off mid-stream. */
const NUMBERS = Array.from({ length: 600 }, (_, i) => String(i + 1)).join(' ');

/** The text of the last tool output the model was sent, if its last input is one. */
function toolOutput(input: Array<Record<string, unknown>> | undefined): string | undefined {
  const last = input?.at(-1);
  return last?.type === 'function_call_output' ? JSON.stringify(last.output) : undefined;
}

describe('Codex in the daemon while its browser comes and goes', () => {
  it('keeps the turn running when the browser closes; its page-tool call goes to the browser that follows the thread next', async () => {
    const daemon = daemonWith(codexBackend());
    codex.mock.setScript(({ body }) => {
      const output = toolOutput(body.input);
      if (output) return { kind: 'text', text: `The tool said: ${output}` };
      return { kind: 'functionCall', name: 'page_read', arguments: {} };
    });
    const { threadId, turnId } = await turnLeftRunning(daemon, 'Read the page', {
      tools: true,
      // The call reaches the first browser, which closes without answering it.
      whileOpen: (first, from) =>
        first.waitFor((m) => m.method === 'item/tool/call' && m.id !== undefined, 60_000, from),
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(runningTurns(daemon)).toBe(1);

    await pageReadAnsweredOnReturn(daemon, threadId, turnId);
  });

  it('shows an approval asked while no browser is connected to the next browser, whose answer runs the command once', async () => {
    const daemon = daemonWith(codexBackend());
    const marker = join(codex.workDir, `ran-${Date.now()}.txt`);
    let release: () => void = () => undefined;
    const asks = new Promise<void>((resolve) => (release = resolve));
    codex.mock.setScript(({ body }) =>
      toolOutput(body.input)
        ? { kind: 'text', text: 'The command finished.' }
        : { kind: 'functionCall', name: 'exec_command', arguments: { cmd: `echo once >> ${marker}` }, release: asks },
    );
    const { threadId, turnId } = await turnLeftRunning(daemon, 'Write the marker');
    // Only now does the model ask for the command, so Codex asks for the approval with no browser connected.
    release();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(existsSync(marker)).toBe(false);
    expect(runningTurns(daemon)).toBe(1);

    const { back, mark } = await followAgain(daemon, threadId);
    const asked = await back.answerApproval('allow', mark, 60_000);
    expect(asked).toMatchObject({ threadId, turnId });
    expect(asked.preview).toContain('echo once');
    expect((await back.turnCompleted(turnId, mark)).params.turn.status).toBe('completed');
    expect(back.messagesOf('approval/request', mark)).toHaveLength(1);
    expect(back.messagesOf('approval/resolved', mark).map((m) => m.params.decision)).toEqual(['allow']);
    expect(readFileSync(marker, 'utf8')).toBe('once\n');
  });

  it("sends each of two browsers the turns of the thread it follows, and none of the other's", async () => {
    const daemon = daemonWith(codexBackend());
    codex.mock.setScript(({ body }) => ({ kind: 'text', text: `Answer to ${lastUserText(body)}`, chunks: 4 }));
    const a = await browser(daemon);
    const b = await browser(daemon);
    const threadA = (await a.call('thread/start', {})).thread.id as string;
    const threadB = (await b.call('thread/start', {})).thread.id as string;
    const [ta, tb] = await Promise.all([a.startTurn(threadA, 'alpha'), b.startTurn(threadB, 'beta')]);
    await Promise.all([a.turnCompleted(ta.turnId, ta.from), b.turnCompleted(tb.turnId, tb.from)]);
    expect(a.streamedText(ta.from)).toBe('Answer to alpha');
    expect(b.streamedText(tb.from)).toBe('Answer to beta');
    const threadsSeen = (h: typeof a): Set<string> =>
      new Set(
        h.messages
          // A thread starting or changing status is told to every browser (its History list); a turn only to its own.
          .filter((m) => /^(turn|item|approval)\//.test(m.method ?? ''))
          .map((m) => m.params?.threadId ?? m.params?.thread?.id ?? m.params?.turn?.threadId)
          .filter((id): id is string => typeof id === 'string'),
      );
    expect([...threadsSeen(a)]).toEqual([threadA]);
    expect([...threadsSeen(b)]).toEqual([threadB]);
  });

  it('keeps the answer Codex was streaming when it is SIGKILLed: the thread reads back with it once, marked unfinished, also after the next turn', async () => {
    const daemon = daemonWith(codexBackend());
    const first = await browser(daemon);
    const threadId = (await first.call('thread/start', {})).thread.id as string;
    codex.mock.setScript(() => ({ kind: 'slow', text: NUMBERS, chunks: 300, chunkDelayMs: 50 }));
    const cut = await first.startTurn(threadId, 'count');
    await waitUntil(() => first.streamedText(cut.from).length > 900, 'Codex to stream part of its answer', 60_000);
    process.kill(codexPid(daemon.pid()!), 'SIGKILL');
    await first.waitFor((m) => m.method === 'bridge/backend/exited', 30_000, cut.from);
    const shown = first.streamedText(cut.from);
    expect(shown.length).toBeLessThan(NUMBERS.length);

    const back = await browser(daemon);
    const answers = (items: Array<Record<string, any>>) =>
      items.filter((i) => i.type === 'agentMessage').map((i) => i.content.text);
    for (const method of ['thread/read', 'thread/resume']) {
      const read = await back.call(method, { threadId });
      expect(answers(read.items), method).toEqual([shown]);
      expect(read.items.map((i: Record<string, any>) => i.turnId)).toEqual([cut.turnId, cut.turnId]);
      expect(read.unfinishedTurns, method).toEqual([
        expect.objectContaining({ id: cut.turnId, status: 'interrupted' }),
      ]);
    }

    codex.mock.setScript(({ body }) => ({ kind: 'text', text: `You said: ${lastUserText(body)}` }));
    const next = await back.startTurn(threadId, 'after');
    expect((await back.turnCompleted(next.turnId, next.from)).params.turn.status).toBe('completed');
    const later = await back.call('thread/read', { threadId });
    expect(answers(later.items)).toEqual([shown, 'You said: after']);
    expect(later.unfinishedTurns).toEqual([expect.objectContaining({ id: cut.turnId })]);
  });

  it('keeps what was journaled of the answer when the daemon is SIGKILLed with Codex: the next daemon reads it back marked unfinished', async () => {
    const daemon = daemonWith(codexBackend());
    const first = await browser(daemon);
    const threadId = (await first.call('thread/start', {})).thread.id as string;
    codex.mock.setScript(() => ({ kind: 'slow', text: NUMBERS, chunks: 300, chunkDelayMs: 50 }));
    const cut = await first.startTurn(threadId, 'count');
    await waitUntil(() => first.streamedText(cut.from).length > 1500, 'Codex to stream part of its answer', 60_000);
    const daemonPid = daemon.pid()!;
    const agentPid = codexPid(daemonPid);
    // As a machine losing power would: neither the daemon nor Codex says or writes anything more.
    process.kill(daemonPid, 'SIGKILL');
    process.kill(agentPid, 'SIGKILL');
    const shown = first.streamedText(cut.from);

    const back = await browser(daemon);
    expect(daemon.pid()).not.toBe(daemonPid);
    const read = await back.call('thread/read', { threadId });
    const answers = read.items.filter((i: Record<string, any>) => i.type === 'agentMessage');
    expect(answers).toHaveLength(1);
    const kept: string = answers[0].content.text;
    expect(kept.length).toBeGreaterThan(0);
    expect(shown.startsWith(kept)).toBe(true);
    expect(read.unfinishedTurns).toEqual([expect.objectContaining({ id: cut.turnId, status: 'interrupted' })]);
  });

  it('shows an answer Codex itself kept once: a turn interrupted through Codex, and one that completed', async () => {
    const daemon = daemonWith(codexBackend());
    const h = await browser(daemon);
    const threadId = (await h.call('thread/start', {})).thread.id as string;
    codex.mock.setScript(() => ({ kind: 'slow', text: NUMBERS, chunks: 300, chunkDelayMs: 50 }));
    const stopped = await h.startTurn(threadId, 'count');
    await waitUntil(() => h.streamedText(stopped.from).length > 300, 'Codex to stream part of its answer', 60_000);
    await h.call('turn/interrupt', { threadId, turnId: stopped.turnId });
    expect((await h.turnCompleted(stopped.turnId, stopped.from)).params.turn.status).toBe('interrupted');
    codex.mock.setScript(({ body }) => ({ kind: 'text', text: `You said: ${lastUserText(body)}` }));
    const done = await h.startTurn(threadId, 'again');
    await h.turnCompleted(done.turnId, done.from);

    const read = await (await browser(daemon)).call('thread/read', { threadId });
    const ids = read.items.map((i: Record<string, any>) => i.id);
    expect(new Set(ids).size).toBe(ids.length);
    const byTurn = (turnId: string) =>
      read.items.filter((i: Record<string, any>) => i.turnId === turnId && i.type === 'agentMessage');
    expect(byTurn(stopped.turnId)).toHaveLength(1);
    expect(h.streamedText(stopped.from)).toContain(byTurn(stopped.turnId)[0].content.text);
    expect(byTurn(done.turnId).map((i: Record<string, any>) => i.content.text)).toEqual(['You said: again']);
    expect(read.unfinishedTurns).toEqual([expect.objectContaining({ id: stopped.turnId, status: 'interrupted' })]);
  });
});
