/**
 * The seed's lifecycle as a literal transcript (seed 000_328a51693592e7d1): initialize, initialized, thread/start,
 * turn/start with its streamed items, thread/read, an approval answered through the server request and one through
 * approval/resolve. Ids and the clock are fixed so every line is compared whole.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, seedIds, type Harness } from './testing/harness';
import { lines, RawClient } from './testing/raw-client';

const T = 1780410000000;
const THREAD =
  '{"id":"thread_1","title":"Investigate repo","model":"scripted","status":"idle","archived":false,"ephemeral":false,"createdAtMs":1780410000000,"updatedAtMs":1780410000000,"cwd":"/srv/repo"}';

let harness: Harness;
afterEach(async () => harness.dispose());

function start(cwd = '/srv/repo'): RawClient {
  harness = createHarness({ persistent: false, config: { now: () => T, newId: seedIds(), cwd } });
  return new RawClient(harness.server);
}

async function initialize(raw: RawClient): Promise<void> {
  await raw.call(
    '{"id":1,"method":"initialize","params":{"clientInfo":{"name":"v-claw","version":"0.1.0"},"capabilities":{"experimentalApi":false,"optOutNotificationMethods":[]}}}',
  );
  raw.send('{"method":"initialized"}');
}

describe('the seed lifecycle', () => {
  it('answers initialize, starts a thread, streams a turn and replays it, line for line', async () => {
    const raw = start();
    expect(
      await raw.call(
        '{"id":1,"method":"initialize","params":{"clientInfo":{"name":"v-claw","version":"0.1.0"},"capabilities":{"experimentalApi":false,"optOutNotificationMethods":[]}}}',
      ),
    ).toEqual(
      lines(
        '{"id":1,"result":{"serverInfo":{"name":"tether-app-server","version":"0.0.0-dev"},"protocolVersion":"2026-06-02","supportedTransports":["stdio"],"capabilities":{"thread":true,"turn":true,"itemStream":true,"approvalRequests":true,"eventReplay":true,"schemaExport":true,"steer":true,"fork":true,"archive":true,"modelList":true,"clientTools":true}}}',
      ),
    );
    raw.send('{"method":"initialized"}');

    raw.send(
      '{"id":2,"method":"thread/start","params":{"title":"Investigate repo","model":"scripted","ephemeral":false}}',
    );
    expect(await raw.take((m) => m.method === 'thread/started')).toEqual(
      lines(`{"id":2,"result":{"thread":${THREAD}}}`, `{"method":"thread/started","params":{"thread":${THREAD}}}`),
    );

    raw.send(
      '{"id":3,"method":"turn/start","params":{"threadId":"thread_1","input":[{"text":"/stream 3"}],"model":"scripted"}}',
    );
    const turn =
      '{"id":"turn_1","threadId":"thread_1","status":"running","input":[{"text":"/stream 3"}],"startedAtMs":1780410000000}';
    const user = (status: string, done = '') =>
      `{"id":"evt_1","type":"userMessage","status":"${status}","createdAtMs":1780410000000,${done}"content":{"text":"/stream 3"},"turnId":"turn_1"}`;
    const agent = (status: string, text: string, done = '') =>
      `{"id":"evt_2","type":"agentMessage","status":"${status}","createdAtMs":1780410000000,${done}"content":{"text":"${text}"},"turnId":"turn_1"}`;
    const at = '"completedAtMs":1780410000000,';
    const delta = (d: string) =>
      `{"method":"item/agentMessage/delta","params":{"threadId":"thread_1","turnId":"turn_1","itemId":"evt_2","delta":"${d}"}}`;
    expect(await raw.take((m) => m.method === 'turn/completed')).toEqual(
      lines(
        `{"id":3,"result":{"turn":${turn}}}`,
        `{"method":"turn/started","params":{"turn":${turn}}}`,
        '{"method":"thread/status/changed","params":{"threadId":"thread_1","status":"running"}}',
        `{"method":"item/started","params":{"threadId":"thread_1","turnId":"turn_1","item":${user('inProgress')}}}`,
        `{"method":"item/completed","params":{"threadId":"thread_1","turnId":"turn_1","item":${user('completed', at)}}}`,
        `{"method":"item/started","params":{"threadId":"thread_1","turnId":"turn_1","item":${agent('inProgress', '')}}}`,
        delta('1 '),
        delta('2 '),
        delta('3 '),
        `{"method":"item/completed","params":{"threadId":"thread_1","turnId":"turn_1","item":${agent('completed', '1 2 3 ', at)}}}`,
        '{"method":"thread/status/changed","params":{"threadId":"thread_1","status":"idle"}}',
        '{"method":"turn/completed","params":{"turn":{"id":"turn_1","threadId":"thread_1","status":"completed","input":[{"text":"/stream 3"}],"startedAtMs":1780410000000,"completedAtMs":1780410000000}}}',
      ),
    );

    expect(await raw.call('{"id":4,"method":"thread/read","params":{"threadId":"thread_1"}}')).toEqual(
      lines(
        `{"id":4,"result":{"thread":${THREAD.replace(/}$/, ',"preview":"1 2 3"}')},"items":[${user('completed', at)},${agent('completed', '1 2 3 ', at)}]}}`,
      ),
    );
  });

  it('decides an approval by the answer to approval/request, then refuses approval/resolve of it with -32040', async () => {
    const raw = start('/');
    await initialize(raw);
    await raw.call('{"id":2,"method":"thread/start","params":{"title":"Investigate repo","model":"scripted"}}');
    raw.send(
      '{"id":3,"method":"turn/start","params":{"threadId":"thread_1","input":[{"text":"/bash echo approved"}]}}',
    );
    const asked = await raw.take((m) => m.method === 'approval/request');
    const approval =
      '{"threadId":"thread_1","turnId":"turn_1","requestId":"approval_1","toolName":"bash","preview":"Run `echo approved` in /","arguments":{"command":"echo approved"},"choices":["allow","allow_session","deny"],"sessionScope":"command"}';
    expect(asked.slice(-3)).toEqual(
      lines(
        '{"method":"thread/status/changed","params":{"threadId":"thread_1","status":"waitingOnApproval"}}',
        `{"method":"approval/requested","params":${approval}}`,
        `{"id":1,"method":"approval/request","params":${approval}}`,
      ),
    );
    raw.send('{"id":1,"result":{"decision":"allow"}}');
    const after = await raw.take((m) => m.method === 'turn/completed');
    expect(after.slice(0, 3)).toEqual(
      lines(
        '{"method":"approval/resolved","params":{"threadId":"thread_1","turnId":"turn_1","requestId":"approval_1","decision":"allow"}}',
        '{"method":"thread/status/changed","params":{"threadId":"thread_1","status":"running"}}',
        '{"method":"item/completed","params":{"threadId":"thread_1","turnId":"turn_1","item":{"id":"evt_2","type":"toolCall","status":"completed","createdAtMs":1780410000000,"completedAtMs":1780410000000,"content":{"toolName":"bash","arguments":{"command":"echo approved"},"status":"success","callId":"call_1","result":{"exitCode":0,"output":"approved\\n","truncated":false,"timedOut":false}},"turnId":"turn_1"}}}',
      ),
    );
    expect(after.at(-1)).toMatchObject({ method: 'turn/completed', params: { turn: { status: 'completed' } } });
    const reply = after.filter((m) => m.method === 'item/completed').at(-1) as {
      params: { item: { content: { text: string } } };
    };
    expect(reply.params.item.content.text).toContain('approved');

    expect(
      await raw.call(
        '{"id":5,"method":"approval/resolve","params":{"threadId":"thread_1","turnId":"turn_1","requestId":"approval_1","decision":"allow"}}',
      ),
    ).toEqual(
      lines(
        '{"id":5,"error":{"code":-32040,"message":"Approval approval_1 not found or already resolved","data":{"requestId":"approval_1"}}}',
      ),
    );
  });

  it('decides an approval by approval/resolve; the late answer to the server request changes nothing', async () => {
    const raw = start();
    await initialize(raw);
    await raw.call('{"id":2,"method":"thread/start","params":{"title":"Investigate repo","model":"scripted"}}');
    raw.send('{"id":3,"method":"turn/start","params":{"threadId":"thread_1","input":[{"text":"/bash echo never"}]}}');
    await raw.take((m) => m.method === 'approval/request');
    expect(
      await raw.call(
        '{"id":5,"method":"approval/resolve","params":{"threadId":"thread_1","turnId":"turn_1","requestId":"approval_1","decision":"deny"}}',
      ),
    ).toEqual(
      lines(
        '{"method":"approval/resolved","params":{"threadId":"thread_1","turnId":"turn_1","requestId":"approval_1","decision":"deny"}}',
        '{"id":5,"result":{}}',
      ),
    );
    // The turn goes on after the answer: it is running again.
    expect(await raw.take((m) => m.method === 'thread/status/changed')).toEqual(
      lines('{"method":"thread/status/changed","params":{"threadId":"thread_1","status":"running"}}'),
    );
    raw.send('{"id":1,"result":{"decision":"allow"}}');
    const after = await raw.take((m) => m.method === 'turn/completed');
    const tool = after.find((m) => m.method === 'item/completed') as { params: { item: unknown } };
    expect(tool.params.item).toEqual(
      JSON.parse(
        '{"id":"evt_2","type":"toolCall","status":"declined","createdAtMs":1780410000000,"completedAtMs":1780410000000,"content":{"toolName":"bash","arguments":{"command":"echo never"},"status":"declined","callId":"call_1","error":"The user denied this tool call."},"turnId":"turn_1"}',
      ),
    );
    expect(after.filter((m) => m.method === 'approval/resolved')).toEqual([]);
    expect(JSON.stringify(after)).toContain('You declined to run `echo never`');
  });
});
