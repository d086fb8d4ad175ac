/** Every JSON example of seed 000 (the protocol's origin), copied literally, with the message each one is. */

/** One literal example: its kind, its wire method (for responses: the method it answers) and its exact JSON text. */
export interface SeedExample {
  readonly name: string;
  readonly kind: 'request' | 'response' | 'notification';
  readonly method: string;
  readonly json: string;
}

// Copied from seeds/000_328a51693592e7d1.txt, in the order they appear there.
export const seedExamples: readonly SeedExample[] = [
  {
    name: 'initialize request',
    kind: 'request',
    method: 'initialize',
    json: '{"id":1,"method":"initialize","params":{"clientInfo":{"name":"v-claw","version":"0.1.0"},"capabilities":{"experimentalApi":false,"optOutNotificationMethods":[]}}}',
  },
  {
    name: 'initialize response',
    kind: 'response',
    method: 'initialize',
    json: '{"id":1,"result":{"serverInfo":{"name":"vv-agent-rs","version":"0.4.0"},"protocolVersion":"2026-06-02","supportedTransports":["stdio"],"capabilities":{"thread":true,"turn":true,"itemStream":true,"approvalRequests":true,"eventReplay":true,"schemaExport":true}}}',
  },
  {
    name: 'initialized notification',
    kind: 'notification',
    method: 'initialized',
    json: '{"method":"initialized"}',
  },
  {
    name: 'thread/start request',
    kind: 'request',
    method: 'thread/start',
    json: '{"id":2,"method":"thread/start","params":{"title":"Investigate repo","model":"deepseek-v4-pro","ephemeral":false}}',
  },
  {
    name: 'thread/start response',
    kind: 'response',
    method: 'thread/start',
    json: '{"id":2,"result":{"thread":{"id":"thread_1","title":"Investigate repo","model":"deepseek-v4-pro","status":"idle","archived":false,"ephemeral":false,"createdAtMs":1780410000000,"updatedAtMs":1780410000001}}}',
  },
  {
    name: 'thread/started notification',
    kind: 'notification',
    method: 'thread/started',
    json: '{"method":"thread/started","params":{"thread":{"id":"thread_1","title":"Investigate repo","model":"deepseek-v4-pro","status":"idle","archived":false,"ephemeral":false,"createdAtMs":1780410000000,"updatedAtMs":1780410000001}}}',
  },
  {
    name: 'turn/start request',
    kind: 'request',
    method: 'turn/start',
    json: '{"id":3,"method":"turn/start","params":{"threadId":"thread_1","input":[{"text":"Summarize the workspace"}],"model":"deepseek-v4-pro"}}',
  },
  {
    name: 'turn/start response',
    kind: 'response',
    method: 'turn/start',
    json: '{"id":3,"result":{"turn":{"id":"turn_1","threadId":"thread_1","runId":"assistant_run","status":"running","input":[{"text":"Summarize the workspace"}],"startedAtMs":1780410000100}}}',
  },
  {
    name: 'turn/started notification',
    kind: 'notification',
    method: 'turn/started',
    json: '{"method":"turn/started","params":{"turn":{"id":"turn_1","threadId":"thread_1","runId":"assistant_run","status":"running","input":[{"text":"Summarize the workspace"}],"startedAtMs":1780410000100}}}',
  },
  {
    name: 'item/agentMessage/delta notification',
    kind: 'notification',
    method: 'item/agentMessage/delta',
    json: '{"method":"item/agentMessage/delta","params":{"threadId":"thread_1","turnId":"turn_1","itemId":"evt_1","delta":"The workspace contains..."}}',
  },
  {
    name: 'item/completed notification',
    kind: 'notification',
    method: 'item/completed',
    json: '{"method":"item/completed","params":{"threadId":"thread_1","turnId":"turn_1","item":{"id":"evt_2","runEventId":"evt_2","type":"toolCall","status":"completed","createdAtMs":1780410000200,"completedAtMs":1780410000200,"content":{"toolName":"task_finish","status":"success"}}}}',
  },
  {
    name: 'turn/completed notification',
    kind: 'notification',
    method: 'turn/completed',
    json: '{"method":"turn/completed","params":{"turn":{"id":"turn_1","threadId":"thread_1","runId":"assistant_run","status":"completed","input":[],"completedAtMs":1780410000300}}}',
  },
  {
    name: 'approval/requested notification',
    kind: 'notification',
    method: 'approval/requested',
    json: '{"method":"approval/requested","params":{"threadId":"thread_1","turnId":"turn_1","requestId":"approval_1","toolName":"bash","preview":"Run cargo test","choices":["allow","deny"]}}',
  },
  {
    name: 'approval/request server request',
    kind: 'request',
    method: 'approval/request',
    json: '{"id":"approval_1","method":"approval/request","params":{"threadId":"thread_1","turnId":"turn_1","requestId":"approval_1","toolName":"bash","preview":"Run cargo test","choices":["allow","deny"]}}',
  },
  {
    name: 'approval/request client response',
    kind: 'response',
    method: 'approval/request',
    json: '{"id":"approval_1","result":{"decision":"allow"}}',
  },
  {
    name: 'approval/resolved notification',
    kind: 'notification',
    method: 'approval/resolved',
    json: '{"method":"approval/resolved","params":{"threadId":"thread_1","turnId":"turn_1","requestId":"approval_1","decision":"allow"}}',
  },
  {
    name: 'approval/resolve request',
    kind: 'request',
    method: 'approval/resolve',
    json: '{"id":5,"method":"approval/resolve","params":{"threadId":"thread_1","turnId":"turn_1","requestId":"approval_1","decision":"allow"}}',
  },
  {
    name: 'thread/read request',
    kind: 'request',
    method: 'thread/read',
    json: '{"id":4,"method":"thread/read","params":{"threadId":"thread_1"}}',
  },
  {
    name: 'thread/read response',
    kind: 'response',
    method: 'thread/read',
    json: '{"id":4,"result":{"thread":{"id":"thread_1","title":"Investigate repo","model":"deepseek-v4-pro","status":"idle","archived":false,"ephemeral":false,"createdAtMs":1780410000000,"updatedAtMs":1780410000300},"items":[{"id":"evt_1","runEventId":"evt_1","type":"agentMessage","status":"completed","createdAtMs":1780410000101,"completedAtMs":1780410000101,"content":{"text":"The workspace contains..."}}]}}',
  },
  {
    name: 'schema/export request',
    kind: 'request',
    method: 'schema/export',
    json: '{"id":6,"method":"schema/export","params":{}}',
  },
  {
    name: 'model/list request',
    kind: 'request',
    method: 'model/list',
    json: '{"id":7,"method":"model/list","params":{}}',
  },
];
