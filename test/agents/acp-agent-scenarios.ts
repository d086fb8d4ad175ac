/**
 * The scenarios every real ACP agent behind `tether host` runs (Claude Code, Gemini CLI), each written once. An agent's
 * test file gives its row: its pinned package, its mock model, the host that runs it, and where it differs (which
 * model is the default, how its requests name a model or declare tools, what it needs to sign in).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { AgentPackage } from '../support/agents-cache';
import type { ScriptedModelServer, TextTurn } from '../support/sse-server';
import { type AgentHost, type AgentSuite, answerToolCall, PAGE_TOOLS, tempDir } from './agent-host';

/** How a scenario wants its host. */
export interface AcpHostOptions {
  /** The host's data folder, shared by hosts that reopen a thread; a fresh one when unset. */
  readonly dataHome?: string;
  /** Without the key or gateway that points the agent at the mock: it has no credentials at all. */
  readonly signedOut?: boolean;
  /** Offered Tether's page tools over MCP. */
  readonly pageTools?: boolean;
  /** Started through the agent's own relaunching launcher, where it has one. */
  readonly relaunch?: boolean;
}

/** One agent's row: how to run it against its mock model, and where it differs from the others. */
export interface AcpAgentRow<Turn, Body> {
  /** Backend id, and the prefix of its marker files. */
  readonly id: string;
  /** What the answers and test names call it. */
  readonly name: string;
  readonly pkg: AgentPackage;
  /** `initialize`'s serverInfo.name: the name the agent gives itself. */
  readonly agentName: string;
  readonly agent: AgentSuite<ScriptedModelServer<TextTurn | Turn, Body>>;
  readonly host: (options?: AcpHostOptions) => AgentHost;
  /** The model's turn asking the agent to run `command` in its shell. */
  readonly shell: (command: string) => Turn;
  /** The agent's own model requests (its turns, not titles or token counts) after the first `from` requests. */
  readonly turnRequests: (from: number) => Array<{ path: string; body: Body }>;
  /** Whether the agent's completed shell call carries the command's output (Claude Code's does; Gemini's has none). */
  readonly shellOutput: boolean;
  /** The user texts a model request carries (the earlier turns of a resumed thread among them). */
  readonly userTexts: (body: Body) => string[];
  /** The last message of a model request (where a tool's result goes back to the model). */
  readonly lastMessage: (body: Body) => unknown;
  /** The tools a model request declares. */
  readonly declaredTools: (body: Body) => string[];
  readonly models: {
    /** The thread's model when none is asked for (a matcher when it varies). */
    readonly default: unknown;
    /** Another model of the list that the agent can run. */
    readonly other: (models: Array<{ id: string }>, current: string) => string | undefined;
    /** Where a model request says which model it asks for (its body's model, or its path). */
    readonly sent: (request: { path: string; body: Body }) => unknown;
    /** What `sent` is for a thread running model `id` (a matcher when the agent expands the name). */
    readonly sentFor: (id: string) => unknown;
  };
  /** The name the agent gives Tether's `page_read` among the tools a model request declares. */
  readonly pageReadTool: (declared: string[]) => string | undefined;
  /** Makes the model call Tether's `page_read` once; returns the clean-up. */
  readonly callPageRead: () => () => void;
  /** Before a second host reopens a thread the first one left. */
  readonly beforeReopen?: () => void;
  readonly signIn: {
    /** What the test name says it needs. */
    readonly needs: string;
    /** Words the error must hold. */
    readonly words: readonly string[];
    /** Where it says so: the turn fails, or the agent refuses the session at `thread/start`. */
    readonly failsAt: 'turn' | 'thread/start';
  };
  /** How the stdin-close scenario starts the host, and what its name adds. */
  readonly stdinClose: { readonly options: AcpHostOptions; readonly note: string };
}

/** Runs turns in a new thread in a host of its own, and closes the host; resolves with the thread id. */
export async function earlierTurns(host: AgentHost, texts: string[]): Promise<string> {
  await host.initialize();
  const { thread } = await host.call('thread/start', {});
  for (const text of texts) {
    const t = await host.startTurn(thread.id, text);
    await host.turnCompleted(t.turnId, t.from);
  }
  host.closeInput();
  await host.exited;
  return thread.id;
}

/** Each item's type and text, for comparing a transcript. */
const textsOf = (items: Array<Record<string, any>>) => items.map((i) => [i.type, i.content.text]);

/** The scenarios, each written once: a name for the agent's row and what it runs. */
function scenarios<Turn, Body>(row: AcpAgentRow<Turn, Body>): Array<{ name: string; run: () => Promise<void> }> {
  return [
    {
      name: 'streams an answer, names the model, lists the models and reads the thread back',
      async run() {
        const { agent } = row;
        const h = row.host();
        const info = await h.initialize();
        expect(info.serverInfo).toEqual({ name: row.agentName, version: row.pkg.version });
        const { thread } = await h.call('thread/start', { title: 'Given by the client' });
        expect(thread.model).toEqual(row.models.default);
        const { models } = await h.call('model/list', {});
        expect(models.map((m: { id: string }) => m.id)).toContain(thread.model);
        expect(models.find((m: { isDefault?: boolean }) => m.isDefault)?.id).toBe(thread.model);

        const answer = `${row.name} streams through Tether.`;
        agent.mock.enqueue({ kind: 'text', text: answer, chunks: 5 });
        const t = await h.startTurn(thread.id, 'Say hello');
        const done = await h.turnCompleted(t.turnId, t.from);
        expect(done.params.turn.status).toBe('completed');
        expect(h.streamedText(t.from)).toBe(answer);
        const read = await h.call('thread/read', { threadId: thread.id });
        expect(read.thread).toMatchObject({ title: 'Given by the client', model: thread.model });
        expect(textsOf(read.items)).toEqual([
          ['userMessage', 'Say hello'],
          ['agentMessage', answer],
        ]);

        // A model from the list: the thread runs it (session/set_model), and so does the model request.
        const other = row.models.other(models, thread.model);
        expect(other).toBeDefined();
        const { thread: picked } = await h.call('thread/start', { model: other });
        expect(picked.model).toBe(other);
        const before = agent.mock.requests.length;
        const u = await h.startTurn(picked.id, 'Which model?');
        await h.turnCompleted(u.turnId, u.from);
        const last = row.turnRequests(before).at(-1);
        expect(last && row.models.sent(last)).toEqual(row.models.sentFor(other!));
      },
    },
    {
      name: 'runs a shell command the user allows and not one the user denies, each item started once; the denied call ends when denied',
      async run() {
        const { agent } = row;
        const h = row.host();
        await h.initialize();
        const { thread } = await h.call('thread/start', {});

        const allowedCommand = `touch ${row.id}-allowed.marker && echo tether-allowed`;
        agent.mock.enqueue(row.shell(allowedCommand));
        const allowed = await h.startTurn(thread.id, 'Run the allowed command');
        const asked = await h.answerApproval('allow', allowed.from);
        expect(asked).toMatchObject({
          threadId: thread.id,
          turnId: allowed.turnId,
          arguments: { command: allowedCommand },
        });
        expect(asked.choices).toEqual(expect.arrayContaining(['allow', 'allow_session', 'deny']));
        // The card shows the command once (Claude's title is the command in backticks).
        expect(asked.preview.split(allowedCommand)).toHaveLength(2);
        await h.turnCompleted(allowed.turnId, allowed.from);
        const ran = h.completedItems(allowed.from).find((i) => i.type === 'toolCall')!;
        expect(ran.status).toBe('completed');
        if (row.shellOutput) expect(ran.content.result).toContain('tether-allowed');
        else expect(ran.content.result).toBeUndefined();
        expect(existsSync(join(agent.workDir, `${row.id}-allowed.marker`))).toBe(true);
        const started = h.messagesOf('item/started', allowed.from).map((m) => m.params.item.id);
        expect(new Set(started).size).toBe(started.length);

        agent.mock.enqueue(row.shell(`touch ${row.id}-denied.marker`));
        const denied = await h.startTurn(thread.id, 'Run the denied command');
        await h.answerApproval('deny', denied.from);
        const declined = await h.waitFor(
          (m) => m.method === 'item/completed' && m.params.item.type === 'toolCall',
          60_000,
          denied.from,
        );
        expect(declined.params.item.status).toBe('declined');
        // Ended when denied: before the model's answer to the denial, not at the end of the turn.
        const answerStarted = h.messages.findIndex(
          (m, i) => i >= denied.from && m.method === 'item/started' && m.params.item.type === 'agentMessage',
        );
        expect(answerStarted === -1 || h.messages.indexOf(declined) < answerStarted).toBe(true);
        await h.turnCompleted(denied.turnId, denied.from);
        expect(existsSync(join(agent.workDir, `${row.id}-denied.marker`))).toBe(false);
        expect(h.messagesOf('approval/resolved', allowed.from).map((m) => m.params.decision)).toEqual([
          'allow',
          'deny',
        ]);
      },
    },
    {
      name: 'interrupts a streaming turn and a turn waiting on a permission',
      async run() {
        // While it streams, then while it waits on the user's permission for a command that would leave a marker.
        const h = row.host();
        await h.initialize();
        const { thread } = await h.call('thread/start', {});
        row.agent.mock.enqueue({ kind: 'slow', text: 'y'.repeat(200), chunks: 200, chunkDelayMs: 50 });
        const slow = await h.startTurn(thread.id, 'Talk slowly');
        await h.waitFor((m) => m.method === 'item/agentMessage/delta', 60_000, slow.from);
        await h.call('turn/interrupt', { threadId: thread.id, turnId: slow.turnId });
        expect((await h.turnCompleted(slow.turnId, slow.from)).params.turn.status).toBe('interrupted');

        const marker = `${row.id}-never.marker`;
        row.agent.mock.enqueue(row.shell(`touch ${marker}`));
        const waiting = await h.startTurn(thread.id, 'Run and cancel');
        await h.waitFor((m) => m.method === 'approval/request', 60_000, waiting.from);
        await h.call('turn/interrupt', { threadId: thread.id, turnId: waiting.turnId });
        expect((await h.turnCompleted(waiting.turnId, waiting.from)).params.turn.status).toBe('interrupted');
        expect(h.messagesOf('approval/resolved', waiting.from).map((m) => m.params.decision)).toEqual(['cancelled']);
        expect(existsSync(join(row.agent.workDir, marker))).toBe(false);
      },
    },
    {
      name: 'resumes a thread in a new host; the replay stays out of the new turn and the earlier turns reach the model',
      async run() {
        const dataHome = tempDir(`${row.id}-data`);
        const earlier = ['Remember the word tether-papaya', 'And the number 42'];
        const threadId = await earlierTurns(row.host({ dataHome }), earlier);
        row.beforeReopen?.();

        const second = row.host({ dataHome });
        await second.initialize();
        const resumed = await second.call('thread/resume', { threadId });
        expect(textsOf(resumed.items)).toEqual(
          earlier.flatMap((text) => [
            ['userMessage', text],
            ['agentMessage', `You said: ${text}`],
          ]),
        );
        const before = row.agent.mock.requests.length;
        const b = await second.startTurn(threadId, 'Which word?');
        expect((await second.turnCompleted(b.turnId, b.from)).params.turn.status).toBe('completed');
        expect(second.messagesOf('warning', b.from)).toEqual([]);
        // Only the new turn's items: nothing replayed from the earlier ones.
        expect(second.streamedText(b.from)).toBe('You said: Which word?');
        expect(textsOf(second.completedItems(b.from))).toEqual([
          ['userMessage', 'Which word?'],
          ['agentMessage', 'You said: Which word?'],
        ]);
        const bodies = row.turnRequests(before).map((r) => r.body);
        expect(bodies.some((body) => row.userTexts(body).some((t) => t.includes('tether-papaya')))).toBe(true);
        const read = await second.call('thread/read', { threadId });
        expect(textsOf(read.items)).toEqual(
          [...earlier, 'Which word?'].flatMap((text) => [
            ['userMessage', text],
            ['agentMessage', `You said: ${text}`],
          ]),
        );
      },
    },
    {
      name: `says that ${row.name} needs ${row.signIn.needs} when it has no credentials`,
      async run() {
        const h = row.host({ signedOut: true });
        await h.initialize();
        let message: string;
        if (row.signIn.failsAt === 'thread/start') {
          message = (await h.request('thread/start', {}, 60_000)).error.message;
        } else {
          const { thread } = await h.call('thread/start', {});
          const t = await h.startTurn(thread.id, 'Hello?');
          const done = await h.turnCompleted(t.turnId, t.from);
          expect(done.params.turn.status).toBe('failed');
          message = done.params.turn.error.message;
        }
        for (const word of row.signIn.words) expect(message).toContain(word);
        expect(message).not.toContain('copilot');
      },
    },
    {
      name: `exits within the browser’s 2 s after stdin closes, ${row.stdinClose.note}`,
      async run() {
        // Milliseconds from closing the stdin of a host with a started thread to its exit.
        const h = row.host(row.stdinClose.options);
        await h.initialize();
        await h.call('thread/start', {});
        const closed = performance.now();
        h.closeInput();
        const exit = await h.exited;
        expect(exit.at - closed).toBeLessThan(2000);
      },
    },
    {
      name: "calls Tether's page tool over MCP: the model's call reaches the client as item/tool/call",
      async run() {
        const h = row.host({ pageTools: true });
        await h.initialize({ clientTools: PAGE_TOOLS });
        const { thread } = await h.call('thread/start', {});
        const before = row.agent.mock.requests.length;
        const restore = row.callPageRead();
        try {
          const t = await h.startTurn(thread.id, 'Read the page');
          const call = await answerToolCall(
            h,
            { success: true, content: [{ type: 'text', text: 'PAGE TEXT: Example Domain.' }] },
            t.from,
          );
          expect(call).toMatchObject({ threadId: thread.id, turnId: t.turnId, tool: 'page_read' });
          expect((await h.turnCompleted(t.turnId, t.from)).params.turn.status).toBe('completed');
          const bodies = row.turnRequests(before).map((r) => r.body);
          const declared = row.declaredTools(bodies[0]!);
          expect(declared).toContain(row.pageReadTool(declared));
          expect(JSON.stringify(row.lastMessage(bodies.at(-1)!))).toContain('PAGE TEXT: Example Domain.');
        } finally {
          restore();
        }
      },
    },
  ];
}

/** Registers every scenario for one agent (call inside its `describe`). */
export function acpAgentScenarios<Turn, Body>(row: AcpAgentRow<Turn, Body>): void {
  for (const scenario of scenarios(row)) it(scenario.name, scenario.run);
}
