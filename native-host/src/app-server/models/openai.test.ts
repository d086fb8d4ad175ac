/** The `openai` model against a local mock of an OpenAI-compatible endpoint on 127.0.0.1. */
import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, runTurn, type Harness, type TestClient } from '../testing/harness';
import { startMockOpenAi, streamChunks, type MockOpenAi } from '../testing/mock-openai';
import { BROWSER_TOOLS_PROMPT } from './openai-messages';

const KEY = 'sk-test-0123456789abcdefSECRET';
let mock: MockOpenAi;
let harness: Harness | undefined;

beforeAll(async () => {
  mock = await startMockOpenAi();
});
afterAll(async () => mock.close());
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
  mock.requests.length = 0;
});

async function connect(
  opts: {
    baseUrl?: string;
    apiKey?: string | null;
    timeoutMs?: number;
    clientTools?: Parameters<Harness['connect']>[0];
  } = {},
): Promise<{ tc: TestClient; threadId: string }> {
  const apiKey = opts.apiKey === null ? {} : { apiKey: opts.apiKey ?? KEY };
  harness = createHarness({
    persistent: false,
    model: 'openai',
    config: {
      openai: {
        baseUrl: opts.baseUrl ?? mock.baseUrl,
        ...apiKey,
        model: 'mock-model',
        ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
      },
    },
  });
  const tc = await harness.connect(opts.clientTools);
  const { thread } = await tc.client.threadStart({ title: 'o' });
  return { tc, threadId: thread.id };
}

/** The mock answers the first model call with a call of the tool `name` (id c1) and the next one with `text`. */
function answerWithToolCall(name: string, args: string, text: string): void {
  mock.handle((_req, res, index) =>
    index === 0
      ? streamChunks(res, [{ tool_calls: [{ index: 0, id: 'c1', function: { name, arguments: args } }] }], 'tool_calls')
      : streamChunks(res, [{ content: text }]),
  );
}

describe('the openai model', () => {
  it('streams text deltas and reasoning into items, sending the history, tools and the API key', async () => {
    mock.handle((_req, res) =>
      streamChunks(res, [{ reasoning_content: 'Thinking' }, { content: 'Hel' }, { content: 'lo' }, { content: '!' }]),
    );
    const { tc, threadId } = await connect();
    const first = await runTurn(tc, threadId, 'hi');
    expect(first.turn.status).toBe('completed');
    expect(first.items.map((i) => [i.type, i.content])).toEqual([
      ['userMessage', { text: 'hi' }],
      ['reasoning', { text: 'Thinking' }],
      ['agentMessage', { text: 'Hello!' }],
    ]);
    expect(tc.rec.all('item/agentMessage/delta').map((d) => d.delta)).toEqual(['Hel', 'lo', '!']);
    await runTurn(tc, threadId, 'again');
    const req = mock.requests[1]!;
    expect(req.url).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req.body).toMatchObject({ model: 'mock-model', stream: true });
    const messages = req.body!.messages as { role: string; content: string }[];
    expect(messages.map((m) => [m.role, m.content]).slice(1)).toEqual([
      ['user', 'hi'],
      ['assistant', 'Hello!'],
      ['user', 'again'],
    ]);
    expect((req.body!.tools as { function: { name: string } }[]).map((t) => t.function.name)).toEqual(['bash']);
  });

  it('runs a streamed bash tool call after approval and returns its output to the model', async () => {
    mock.handle((_req, res, index) => {
      if (index === 0) {
        streamChunks(
          res,
          [
            {
              tool_calls: [
                { index: 0, id: 'call_abc', type: 'function', function: { name: 'bash', arguments: '{"comm' } },
              ],
            },
            { tool_calls: [{ index: 0, function: { arguments: 'and":"echo from-tool"}' } }] },
          ],
          'tool_calls',
        );
      } else {
        streamChunks(res, [{ content: 'The tool said from-tool.' }]);
      }
    });
    const { tc, threadId } = await connect();
    tc.client.handle('approval/request', (p) => {
      expect(p).toMatchObject({ toolName: 'bash', arguments: { command: 'echo from-tool' } });
      return { decision: 'allow' };
    });
    const { turn, items } = await runTurn(tc, threadId, 'run it');
    expect(turn.status).toBe('completed');
    expect(items.map((i) => i.type)).toEqual(['userMessage', 'toolCall', 'agentMessage']);
    expect(items[1]).toMatchObject({
      status: 'completed',
      content: { toolName: 'bash', callId: 'call_abc', result: { output: 'from-tool\n' } },
    });
    const second = mock.requests[1]!.body!.messages as Record<string, unknown>[];
    expect(second.at(-2)).toMatchObject({
      role: 'assistant',
      tool_calls: [{ id: 'call_abc', function: { name: 'bash', arguments: '{"command":"echo from-tool"}' } }],
    });
    expect(second.at(-1)).toMatchObject({
      role: 'tool',
      tool_call_id: 'call_abc',
      content: expect.stringContaining('from-tool'),
    });
  });

  it('fails a bash call with broken arguments without asking for approval, and tells the model why', async () => {
    answerWithToolCall('bash', '{"command": "ls', 'sorry');
    const { tc, threadId } = await connect();
    let asked = 0;
    tc.client.handle('approval/request', () => {
      asked++;
      return { decision: 'allow' };
    });
    const { items } = await runTurn(tc, threadId, 'list files');
    expect(asked).toBe(0);
    expect(items[1]).toMatchObject({
      status: 'failed',
      content: {
        toolName: 'bash',
        arguments: '{"command": "ls',
        error: 'The bash tool needs {"command": "<shell command>"}.',
      },
    });
    expect((mock.requests[1]!.body!.messages as Record<string, unknown>[]).at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'c1',
      content: 'The bash tool needs {"command": "<shell command>"}.',
    });
  });

  it('offers client tools as functions and routes their calls to the client', async () => {
    const pageRead = {
      name: 'page_read',
      description: 'Reads the page',
      inputSchema: { type: 'object', properties: {} },
    };
    answerWithToolCall('page_read', '{}', 'It is about tests.');
    const { tc, threadId } = await connect({ clientTools: { clientTools: [pageRead] } });
    tc.client.handle('item/tool/call', () => ({ success: true, content: [{ type: 'text', text: 'Title: Tests' }] }));
    const { items } = await runTurn(tc, threadId, 'what is on the page?');
    expect((mock.requests[0]!.body!.tools as { function: { name: string } }[]).map((t) => t.function.name)).toEqual([
      'bash',
      'page_read',
    ]);
    expect(items[1]).toMatchObject({ content: { toolName: 'page_read', status: 'success' } });
    expect((mock.requests[1]!.body!.messages as Record<string, unknown>[]).at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'c1',
      content: 'Title: Tests',
    });
  });

  it('tells the model how to use page tools in the system prompt only when the client declared page_snapshot', async () => {
    const tool = (name: string) => ({ name, description: name, inputSchema: { type: 'object', properties: {} } });
    mock.handle((_req, res) => streamChunks(res, [{ content: 'ok' }]));
    const system = (index: number): string =>
      (mock.requests[index]!.body!.messages as { role: string; content: string }[])[0]!.content;
    const plain = await connect({ clientTools: { clientTools: [tool('page_read')] } });
    await runTurn(plain.tc, plain.threadId, 'hi');
    expect(system(0)).not.toContain('page_snapshot');
    await harness?.dispose();
    const browser = await connect({ clientTools: { clientTools: [tool('page_read'), tool('page_snapshot')] } });
    await runTurn(browser.tc, browser.threadId, 'hi');
    expect(system(1)).toContain(BROWSER_TOOLS_PROMPT);
  });

  it('reads steering sent during a tool call at its next model call', async () => {
    answerWithToolCall('bash', '{"command":"true"}', 'ok');
    const { tc, threadId } = await connect();
    let allow!: () => void;
    tc.client.handle(
      'approval/request',
      () => new Promise((resolve) => (allow = () => resolve({ decision: 'allow' }))),
    );
    const { turn } = await tc.client.turnStart({ threadId, input: [{ text: 'go' }] });
    await tc.rec.waitFor('approval/requested');
    await tc.client.turnSteer({ threadId, expectedTurnId: turn.id, input: [{ text: 'use French' }] });
    allow();
    await tc.rec.waitFor('turn/completed');
    expect((mock.requests[1]!.body!.messages as Record<string, unknown>[]).at(-1)).toEqual({
      role: 'user',
      content: 'use French',
    });
  });

  it('accepts a server that ignores stream:true and answers with one JSON completion', async () => {
    mock.handle((_req, res) =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'whole' } }] })),
    );
    const { tc, threadId } = await connect();
    expect((await runTurn(tc, threadId, 'hi')).items.at(-1)!.content).toEqual({ text: 'whole' });
  });

  const statuses: [number, RegExp][] = [
    [401, /refused the request \(HTTP 401\): check the API key/],
    [403, /refused the request \(HTTP 403\): check the API key/],
    [404, /HTTP 404: check the base URL .* and the model id "mock-model"/],
    [429, /rate limiting requests \(HTTP 429\): wait a little and retry later/],
    [500, /The model server failed \(HTTP 500 .*retry later/],
    [503, /The model server failed \(HTTP 503 .*retry later/],
    [400, /rejected the request \(HTTP 400\)\. The server said: bad thing/],
  ];
  for (const [status, message] of statuses) {
    it(`fails the turn on HTTP ${status} with a message that says what to fix`, async () => {
      mock.handle((_req, res) =>
        res
          .writeHead(status, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: 'bad thing' } })),
      );
      const { tc, threadId } = await connect();
      const { turn } = await runTurn(tc, threadId, 'hi');
      expect(turn.status).toBe('failed');
      expect(turn.error?.message).toMatch(message);
      expect(turn.error?.code).toBe(status);
      expect(JSON.stringify(tc.rec.notes) + harness!.logs.join('\n')).not.toContain(KEY);
    });
  }

  it('keeps an API key the server echoes in its 401 body out of the turn error, the notifications and the log', async () => {
    const plainKey = 'plainKeyWithoutAnyShape2024';
    mock.handle((req, res) =>
      res
        .writeHead(401, { 'content-type': 'application/json' })
        .end(
          JSON.stringify({ error: { message: `Incorrect API key provided: ${String(req.headers.authorization)}` } }),
        ),
    );
    const { tc, threadId } = await connect({ apiKey: plainKey });
    const { turn } = await runTurn(tc, threadId, 'hi');
    expect(turn.error?.message).toMatch(/HTTP 401.*Incorrect API key provided: Bearer \*\*\*/);
    expect(JSON.stringify(tc.rec.notes) + harness!.logs.join('\n')).not.toContain(plainKey);
  });

  it('sends the user-info of the base URL as Basic auth and keeps its query string after the path', async () => {
    mock.handle((_req, res) => streamChunks(res, [{ content: 'ok' }]));
    const base = new URL(mock.baseUrl);
    const { tc, threadId } = await connect({
      baseUrl: `http://alice:pa%40ss-word-1@${base.host}/v1/?api-key=QK123456`,
      apiKey: null,
    });
    expect((await runTurn(tc, threadId, 'hi')).turn.status).toBe('completed');
    expect(mock.requests[0]!.url).toBe('/v1/chat/completions?api-key=QK123456');
    expect(mock.requests[0]!.headers.authorization).toBe(
      `Basic ${Buffer.from('alice:pa@ss-word-1').toString('base64')}`,
    );
  });

  it('shows the base URL without its user-info and secret query values when a request fails', async () => {
    mock.handle((_req, res) => res.writeHead(404).end('no such route for pa@ss-word-1'));
    const base = new URL(mock.baseUrl);
    const { tc, threadId } = await connect({
      baseUrl: `http://alice:pa%40ss-word-1@${base.host}/v1?api-key=QK123456`,
      apiKey: null,
    });
    const { turn } = await runTurn(tc, threadId, 'hi');
    expect(turn.error?.message).toContain(`http://${base.host}/v1/chat/completions?api-key=*** answered HTTP 404`);
    expect(JSON.stringify(tc.rec.notes) + harness!.logs.join('\n')).not.toMatch(/pa@ss-word-1|pa%40ss-word-1|QK123456/);
  });

  it('refuses a base URL with user-info when an API key is set too, saying which to remove', async () => {
    const base = new URL(mock.baseUrl);
    const { tc, threadId } = await connect({ baseUrl: `http://alice:pw123456@${base.host}/v1` });
    const { turn } = await runTurn(tc, threadId, 'hi');
    expect(turn.error).toMatchObject({
      code: 'bad_base_url',
      message: expect.stringContaining('Remove the user-info from TETHER_OPENAI_BASE_URL'),
    });
    expect(mock.requests).toHaveLength(0);
  });

  it('fails the turn when the server never answers, after the configured timeout', async () => {
    mock.handle(() => undefined);
    const { tc, threadId } = await connect({ timeoutMs: 300 });
    const { turn } = await runTurn(tc, threadId, 'hi');
    expect(turn.error?.message).toMatch(/No answer from http:\/\/127\.0\.0\.1:\d+\/v1 within 300 ms/);
  });

  it('fails the turn when the stream stalls mid-answer, after the configured timeout', async () => {
    mock.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: 'partial' } }] })}\n\n`);
    });
    const { tc, threadId } = await connect({ timeoutMs: 300 });
    const { turn, items } = await runTurn(tc, threadId, 'hi');
    expect(turn.error?.message).toContain('within 300 ms');
    expect(items.find((i) => i.type === 'agentMessage')?.content).toEqual({ text: 'partial' });
  });

  it('fails the turn with "is the server running" when the connection is refused', async () => {
    const port = await freePort();
    const { tc, threadId } = await connect({ baseUrl: `http://127.0.0.1:${port}/v1` });
    const { turn } = await runTurn(tc, threadId, 'hi');
    expect(turn.error?.message).toBe(
      `Cannot connect to http://127.0.0.1:${port}/v1: connection refused. Is the model server running at http://127.0.0.1:${port}/v1?`,
    );
  });

  it('fails the turn on a malformed stream', async () => {
    mock.handle((_req, res) => res.writeHead(200, { 'content-type': 'text/event-stream' }).end('data: {not json\n\n'));
    const { tc, threadId } = await connect();
    expect((await runTurn(tc, threadId, 'hi')).turn.error?.message).toMatch(/malformed stream/);
  });

  it('fails the turn when the connection is cut mid-stream, keeping the text received', async () => {
    mock.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: 'half an ans' } }] })}\n\n`);
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const { tc, threadId } = await connect();
    const { turn, items } = await runTurn(tc, threadId, 'hi');
    expect(turn.error?.message).toMatch(/cut before the model finished|ended before the model finished/);
    expect(items.find((i) => i.type === 'agentMessage')?.content).toEqual({ text: 'half an ans' });
  });

  it('fails the turn when the stream ends without [DONE] or a finish reason', async () => {
    mock.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: ${JSON.stringify({ choices: [{ delta: { content: 'x' } }] })}\n\n`);
    });
    const { tc, threadId } = await connect();
    expect((await runTurn(tc, threadId, 'hi')).turn.error).toMatchObject({
      code: 'stream_cut',
      message: expect.stringContaining('ended before the model finished'),
    });
  });

  it('lists the endpoint models from /models, and falls back to the configured model when that fails', async () => {
    mock.handle((req, res) =>
      req.url === '/v1/models'
        ? res.writeHead(200).end(JSON.stringify({ data: [{ id: 'mock-model' }, { id: 'other' }] }))
        : res.writeHead(500).end(),
    );
    const { tc } = await connect();
    expect((await tc.client.modelList()).models).toEqual([
      { id: 'scripted', displayName: 'Scripted (offline)', provider: 'tether' },
      { id: 'mock-model', displayName: 'mock-model', provider: 'openai', isDefault: true },
      { id: 'other', displayName: 'other', provider: 'openai' },
    ]);
    expect(mock.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    mock.handle((_req, res) => res.writeHead(404).end());
    expect((await tc.client.modelList()).models.map((m) => m.id)).toEqual(['scripted', 'mock-model']);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}
