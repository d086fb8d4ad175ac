import { z } from 'zod';
import { TimestampMs, UserError } from './common';

/** Where an item is: `inProgress` until it ends; `declined` marks a tool call that the user refused. */
export const ItemStatus = z
  .enum(['inProgress', 'completed', 'failed', 'declined'])
  .describe('Where an item is: `inProgress` until it ends; `declined` marks a tool call that the user refused.');
export type ItemStatus = z.infer<typeof ItemStatus>;

const itemBase = {
  id: z.string().describe('Unique within its thread; set by the server.'),
  status: ItemStatus,
  createdAtMs: TimestampMs.describe('When the item started.'),
  completedAtMs: TimestampMs.optional().describe('When the item ended; absent while it is `inProgress`.'),
  turnId: z.string().optional().describe('The turn that produced the item; absent when the backend does not say.'),
};

/** The text of a message or of reasoning; while the item is in progress, deltas append to it. */
export const TextContent = z
  .looseObject({ text: z.string() })
  .describe('The text of a message or of reasoning; while the item is in progress, deltas append to it.');
export type TextContent = z.infer<typeof TextContent>;

/** What a tool call did: its name, arguments, and once finished its result or error. */
export const ToolCallContent = z
  .looseObject({
    toolName: z.string(),
    arguments: z.unknown().optional().describe('The arguments the model gave, as JSON.'),
    status: z.string().optional().describe("The backend's word for the call's state (e.g. `running`, `success`)."),
    result: z.unknown().optional().describe('What the tool returned; absent until it ends, and when it failed.'),
    error: z.string().optional().describe('Why the tool failed or was declined.'),
  })
  .describe('What a tool call did: its name, arguments, and once finished its result or error.');
export type ToolCallContent = z.infer<typeof ToolCallContent>;

/** An error shown in the thread, in words a user can act on. */
export const ErrorContent = UserError.describe('An error shown in the thread, in words a user can act on.');
export type ErrorContent = z.infer<typeof ErrorContent>;

/** An item of type `userMessage`: the user's input to a turn. */
export const UserMessageItem = z
  .looseObject({ ...itemBase, type: z.literal('userMessage'), content: TextContent })
  .describe("An item of type `userMessage`: the user's input to a turn.");
/** An item of type `agentMessage`: text the agent wrote to the user, streamed by `item/agentMessage/delta`. */
export const AgentMessageItem = z
  .looseObject({ ...itemBase, type: z.literal('agentMessage'), content: TextContent })
  .describe('An item of type `agentMessage`: text the agent wrote to the user, streamed by `item/agentMessage/delta`.');
/** An item of type `reasoning`: the model's reasoning text, streamed by `item/reasoning/delta`. */
export const ReasoningItem = z
  .looseObject({ ...itemBase, type: z.literal('reasoning'), content: TextContent })
  .describe("An item of type `reasoning`: the model's reasoning text, streamed by `item/reasoning/delta`.");
/** An item of type `toolCall`: one call of a tool by the agent, from request to result. */
export const ToolCallItem = z
  .looseObject({ ...itemBase, type: z.literal('toolCall'), content: ToolCallContent })
  .describe('An item of type `toolCall`: one call of a tool by the agent, from request to result.');
/** An item of type `error`: an error shown in the thread. */
export const ErrorItem = z
  .looseObject({ ...itemBase, type: z.literal('error'), content: ErrorContent })
  .describe('An item of type `error`: an error shown in the thread.');
export type UserMessageItem = z.infer<typeof UserMessageItem>;
export type AgentMessageItem = z.infer<typeof AgentMessageItem>;
export type ReasoningItem = z.infer<typeof ReasoningItem>;
export type ToolCallItem = z.infer<typeof ToolCallItem>;
export type ErrorItem = z.infer<typeof ErrorItem>;

/** One entry of a thread's history, told apart by `type`. */
export const Item = z
  .discriminatedUnion('type', [UserMessageItem, AgentMessageItem, ReasoningItem, ToolCallItem, ErrorItem])
  .describe("One entry of a thread's history, told apart by `type`.");
export type Item = z.infer<typeof Item>;
/** The `type` of an item: `userMessage`, `agentMessage`, `reasoning`, `toolCall` or `error`. */
export type ItemType = Item['type'];

const itemEvent = { threadId: z.string(), turnId: z.string(), item: Item };
/** `item/started`: an item began, as it is at its start (usually `inProgress`). */
export const ItemStartedNotification = z
  .looseObject(itemEvent)
  .describe('`item/started`: an item began, as it is at its start (usually `inProgress`).');
export type ItemStartedNotification = z.infer<typeof ItemStartedNotification>;
/** `item/completed`: an item ended; `item` is its final state, as history replays it. */
export const ItemCompletedNotification = z
  .looseObject(itemEvent)
  .describe('`item/completed`: an item ended; `item` is its final state, as history replays it.');
export type ItemCompletedNotification = z.infer<typeof ItemCompletedNotification>;

const delta = {
  threadId: z.string(),
  turnId: z.string(),
  itemId: z.string().describe('The item whose `content.text` grows.'),
  delta: z.string().describe('Text to append, in order.'),
};
/** `item/agentMessage/delta`: more text of an in-progress agent message. */
export const AgentMessageDeltaNotification = z
  .looseObject(delta)
  .describe('`item/agentMessage/delta`: more text of an in-progress agent message.');
export type AgentMessageDeltaNotification = z.infer<typeof AgentMessageDeltaNotification>;
/** `item/reasoning/delta`: more text of an in-progress reasoning item. */
export const ReasoningDeltaNotification = z
  .looseObject(delta)
  .describe('`item/reasoning/delta`: more text of an in-progress reasoning item.');
export type ReasoningDeltaNotification = z.infer<typeof ReasoningDeltaNotification>;

/** Hints about a client tool's effects, as MCP's tool annotations name them (hints for agents, never a permission). */
export const ToolAnnotations = z
  .looseObject({
    title: z.string().optional().describe('A short name for people.'),
    readOnlyHint: z.boolean().optional().describe('True when the tool only reads (the page, the tab list).'),
    destructiveHint: z.boolean().optional().describe('True when what it changes may not be undone.'),
    idempotentHint: z
      .boolean()
      .optional()
      .describe('True when calling it again with the same arguments changes nothing more.'),
    openWorldHint: z.boolean().optional().describe('True when it reaches beyond the page (other sites, the network).'),
  })
  .describe(
    "Hints about a client tool's effects, as MCP's tool annotations name them (hints for agents, never a permission).",
  );
export type ToolAnnotations = z.infer<typeof ToolAnnotations>;

/** A tool that the client runs, declared at `initialize` and offered to the model. */
export const ClientTool = z
  .looseObject({
    name: z.string().min(1).describe('The name the model calls it by, and `item/tool/call` sends back as `tool`.'),
    description: z.string().describe('What the tool does, for the model.'),
    inputSchema: z.record(z.string(), z.unknown()).describe('JSON Schema of its arguments.'),
    annotations: ToolAnnotations.optional().describe(
      'What the tool does to the page; the host passes it on to MCP clients, which skip their own prompt for read-only tools.',
    ),
  })
  .describe('A tool that the client runs, declared at `initialize` and offered to the model.');
export type ClientTool = z.infer<typeof ClientTool>;

/** A piece of a client tool's output: text, or an image as base64 `data` of `mimeType`. */
export const ToolContent = z
  .discriminatedUnion('type', [
    z.looseObject({ type: z.literal('text'), text: z.string() }),
    z.looseObject({ type: z.literal('image'), mimeType: z.string(), data: z.string() }),
  ])
  .describe("A piece of a client tool's output: text, or an image as base64 `data` of `mimeType`.");
export type ToolContent = z.infer<typeof ToolContent>;

/** `item/tool/call` (server request): run a tool that the client declared, and answer with its output. */
export const ToolCallParams = z
  .looseObject({
    threadId: z.string(),
    turnId: z.string(),
    callId: z.string().describe("Identifies this call (the model's tool-call id when it gives one)."),
    tool: z.string().describe('The `name` of a tool from `capabilities.clientTools`.'),
    arguments: z.unknown().describe("The model's arguments, meant to fit the tool's `inputSchema`."),
    caller: z
      .looseObject({
        kind: z.literal('mcpClient'),
        name: z.string().describe('The name the MCP client gave itself: a claim, not proven.'),
        version: z.string().optional(),
        connection: z
          .string()
          .optional()
          .describe(
            'The connection the call came on (its `McpClientInfo.id`): a grant the user gives this client covers only this connection.',
          ),
      })
      .optional()
      .describe("Set when an external MCP client, not the thread's agent, makes the call (on a shared tab)."),
  })
  .describe('`item/tool/call` (server request): run a tool that the client declared, and answer with its output.');
export type ToolCallParams = z.infer<typeof ToolCallParams>;
/** The client's answer to `item/tool/call`: whether the tool succeeded, and what it gives the model. */
export const ToolCallResult = z
  .looseObject({
    success: z.boolean().describe('False when the tool failed; `content` then says why.'),
    content: z.array(ToolContent),
  })
  .describe("The client's answer to `item/tool/call`: whether the tool succeeded, and what it gives the model.");
export type ToolCallResult = z.infer<typeof ToolCallResult>;

/** Why a server stopped waiting for an `item/tool/call`: its caller cancelled it, or the caller's connection closed. */
export const ToolCallCancelReason = z
  .enum(['cancelled', 'disconnected'])
  .describe(
    "Why a server stopped waiting for an `item/tool/call`: its caller cancelled it, or the caller's connection closed.",
  );
export type ToolCallCancelReason = z.infer<typeof ToolCallCancelReason>;

/**
 * `item/tool/call/cancelled`: the server no longer waits for the `item/tool/call` with this `threadId` and `callId`;
 * the client withdraws it, acts on no later decision for it, and sends it no answer.
 */
export const ToolCallCancelledNotification = z
  .looseObject({
    threadId: z.string(),
    turnId: z.string(),
    callId: z.string().describe('The `callId` of the withdrawn `item/tool/call`.'),
    reason: ToolCallCancelReason,
  })
  .describe(
    '`item/tool/call/cancelled`: the server no longer waits for the `item/tool/call` with this `threadId` and `callId`; the client withdraws it, acts on no later decision for it, and sends it no answer.',
  );
export type ToolCallCancelledNotification = z.infer<typeof ToolCallCancelledNotification>;
