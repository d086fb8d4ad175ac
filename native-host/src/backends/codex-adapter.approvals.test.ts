import { ErrorCode, RpcError, serverRequests } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import { setup } from '../testing/codex-client';

describe('codex adapter approvals', () => {
  it('asks for command approvals (request id 0 included), mapping allow to accept and deny to decline', async () => {
    const { client, seen, init, waitFor, agent } = setup('approval');
    await init();
    const asked: Record<string, unknown>[] = [];
    client.onRequest('approval/request', (params) => {
      const p = serverRequests['approval/request'].params.parse(params);
      asked.push(p);
      return { decision: asked.length === 1 ? 'allow' : 'deny' };
    });
    const threadId = ((await client.request('thread/start', {})) as { thread: { id: string } }).thread.id;
    await client.request('turn/start', { threadId, input: [{ text: 'Run echo' }] });
    await waitFor('turn/completed');
    expect(asked[0]).toMatchObject({
      threadId,
      toolName: 'shell',
      preview: "/bin/bash -lc 'echo approved-run'",
      choices: ['allow', 'deny'],
      sessionScope: 'command',
    });
    expect(agent.answers.get(0)).toEqual({ decision: 'accept' });
    const ran = seen.find(
      (s) => s.method === 'item/completed' && (s.params.item as { type: string }).type === 'toolCall',
    )!;
    expect(ran.params.item).toMatchObject({
      id: 'call_allow',
      status: 'completed',
      content: {
        toolName: 'shell',
        arguments: { command: "/bin/bash -lc 'echo approved-run'" },
        result: { exitCode: 0 },
      },
    });

    await client.request('turn/start', { threadId, input: [{ text: 'Run echo again' }] });
    await waitFor('turn/completed', (p) => (p.turn as { id: string }).id !== (ran.params.turnId as string));
    expect(agent.answers.get(1)).toEqual({ decision: 'decline' });
    const declined = seen.find(
      (s) => s.method === 'item/completed' && (s.params.item as { id: string }).id === 'call_deny',
    )!;
    expect(declined.params.item).toMatchObject({ type: 'toolCall', status: 'declined' });
    const resolved = seen.filter((s) => s.method === 'approval/resolved').map((s) => s.params.decision);
    expect(resolved).toEqual(['allow', 'deny']);
    expect(seen.filter((s) => s.method === 'approval/requested')).toHaveLength(2);
    expect(seen.filter((s) => s.method === 'thread/status/changed').map((s) => s.params.status)).toContain(
      'waitingOnApproval',
    );
    client.close();
  });

  it("asks the side panel about an MCP server's own elicitation, naming server and tool, and answers Codex accept or decline", async () => {
    const { client, init, waitFor, agent } = setup('elicitation');
    await init();
    const asked: Record<string, unknown>[] = [];
    client.onRequest('approval/request', (params) => {
      asked.push(serverRequests['approval/request'].params.parse(params));
      return { decision: asked.length === 1 ? 'allow' : 'deny' };
    });
    const threadId = ((await client.request('thread/start', {})) as { thread: { id: string } }).thread.id;
    const first = (await client.request('turn/start', { threadId, input: [{ text: 'Run echo' }] })) as {
      turn: { id: string };
    };
    await waitFor('turn/completed');
    expect(asked[0]).toMatchObject({
      threadId,
      turnId: first.turn.id,
      toolName: 'github: create_issue',
      preview:
        'The "github" MCP server asks to run its tool "create_issue" (the server\'s own request, through Codex): Allow the github MCP server to run tool "create_issue"?',
      arguments: { server: 'github', tool: 'create_issue', params: { title: 'Tether bug' } },
      choices: ['allow', 'deny'],
    });
    expect(agent.answers.get(0)).toEqual({ action: 'accept', content: null });
    await client.request('turn/start', { threadId, input: [{ text: 'Run echo again' }] });
    await waitFor('turn/completed', (p) => (p.turn as { id: string }).id !== first.turn.id);
    expect(agent.answers.get(1)).toEqual({ action: 'decline', content: null });
    client.close();
  });

  it('denies an approval the client answers with an error other than "method not found", as the app-server does', async () => {
    const { client, init, waitFor, agent } = setup('approval');
    await init();
    client.onRequest('approval/request', () =>
      Promise.reject(new RpcError(ErrorCode.InternalError, 'Internal error: storage is full')),
    );
    const threadId = ((await client.request('thread/start', {})) as { thread: { id: string } }).thread.id;
    await client.request('turn/start', { threadId, input: [{ text: 'Run echo' }] });
    expect(await waitFor('approval/resolved')).toMatchObject({ decision: 'deny' });
    await waitFor('turn/completed');
    expect(agent.answers.get(0)).toEqual({ decision: 'decline' });
    client.close();
  });

  it('settles an approval through approval/resolve and rejects a second resolve with -32040', async () => {
    const { client, init, waitFor, agent } = setup('approval');
    await init();
    client.onRequest('approval/request', () => new Promise(() => undefined));
    const threadId = ((await client.request('thread/start', {})) as { thread: { id: string } }).thread.id;
    await client.request('turn/start', { threadId, input: [{ text: 'Run echo' }] });
    const requested = await waitFor('approval/requested');
    const ref = { threadId, turnId: requested.turnId, requestId: requested.requestId };
    // The turn is checked as the app-server checks it: a card from another turn cannot decide this approval.
    await expect(
      client.request('approval/resolve', { ...ref, turnId: 'turn_other', decision: 'allow' }),
    ).rejects.toMatchObject({
      code: ErrorCode.ApprovalNotFound,
    });
    await expect(client.request('approval/resolve', { ...ref, decision: 'allow_session' })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });
    expect(await client.request('approval/resolve', { ...ref, decision: 'allow' })).toEqual({});
    await expect(client.request('approval/resolve', { ...ref, decision: 'allow' })).rejects.toMatchObject({
      code: ErrorCode.ApprovalNotFound,
    });
    await waitFor('turn/completed');
    expect(agent.answers.get(0)).toEqual({ decision: 'accept' });
    client.close();
  });
});
