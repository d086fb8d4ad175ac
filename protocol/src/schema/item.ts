import { z } from 'zod';
import { TimestampMs } from './common';

/** Where an item is. `declined` marks a tool call that the user refused. */
export const ItemStatus = z.enum(['inProgress', 'completed', 'failed', 'declined']);
export type ItemStatus = z.infer<typeof ItemStatus>;

const itemBase = {
  id: z.string(),
  status: ItemStatus,
  createdAtMs: TimestampMs,
  completedAtMs: TimestampMs.optional(),
  turnId: z.string().optional(),
};

/** Text content of a message or of reasoning. */
export const TextContent = z.looseObject({ text: z.string() });
export type TextContent = z.infer<typeof TextContent>;

/** What a tool call did: its name, arguments, and once finished its result or error. */
export const ToolCallContent = z.looseObject({
  toolName: z.string(),
  arguments: z.unknown().optional(),
  status: z.string().optional(),
  result: z.unknown().optional(),
  error: z.string().optional(),
});
export type ToolCallContent = z.infer<typeof ToolCallContent>;

/** An error shown in the thread. */
export const ErrorContent = z.looseObject({ message: z.string(), code: z.union([z.string(), z.number()]).optional() });
export type ErrorContent = z.infer<typeof ErrorContent>;

export const UserMessageItem = z.looseObject({ ...itemBase, type: z.literal('userMessage'), content: TextContent });
export const AgentMessageItem = z.looseObject({ ...itemBase, type: z.literal('agentMessage'), content: TextContent });
export const ReasoningItem = z.looseObject({ ...itemBase, type: z.literal('reasoning'), content: TextContent });
export const ToolCallItem = z.looseObject({ ...itemBase, type: z.literal('toolCall'), content: ToolCallContent });
export const ErrorItem = z.looseObject({ ...itemBase, type: z.literal('error'), content: ErrorContent });
export type UserMessageItem = z.infer<typeof UserMessageItem>;
export type AgentMessageItem = z.infer<typeof AgentMessageItem>;
export type ReasoningItem = z.infer<typeof ReasoningItem>;
export type ToolCallItem = z.infer<typeof ToolCallItem>;
export type ErrorItem = z.infer<typeof ErrorItem>;

/** One entry of a thread's history, told apart by `type`. */
export const Item = z.discriminatedUnion('type', [
  UserMessageItem,
  AgentMessageItem,
  ReasoningItem,
  ToolCallItem,
  ErrorItem,
]);
export type Item = z.infer<typeof Item>;
export type ItemType = Item['type'];

const itemEvent = { threadId: z.string(), turnId: z.string(), item: Item };
export const ItemStartedNotification = z.looseObject(itemEvent);
export type ItemStartedNotification = z.infer<typeof ItemStartedNotification>;
export const ItemCompletedNotification = z.looseObject(itemEvent);
export type ItemCompletedNotification = z.infer<typeof ItemCompletedNotification>;

const delta = { threadId: z.string(), turnId: z.string(), itemId: z.string(), delta: z.string() };
export const AgentMessageDeltaNotification = z.looseObject(delta);
export type AgentMessageDeltaNotification = z.infer<typeof AgentMessageDeltaNotification>;
export const ReasoningDeltaNotification = z.looseObject(delta);
export type ReasoningDeltaNotification = z.infer<typeof ReasoningDeltaNotification>;

/** A client-side tool, declared at initialize and offered to the model. */
export const ClientTool = z.looseObject({
  name: z.string().min(1),
  description: z.string(),
  inputSchema: z.record(z.string(), z.unknown()),
});
export type ClientTool = z.infer<typeof ClientTool>;

/** A piece of a client tool's output. */
export const ToolContent = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text'), text: z.string() }),
  z.looseObject({ type: z.literal('image'), mimeType: z.string(), data: z.string() }),
]);
export type ToolContent = z.infer<typeof ToolContent>;

/** Server request: run a client tool. */
export const ToolCallParams = z.looseObject({
  threadId: z.string(),
  turnId: z.string(),
  callId: z.string(),
  tool: z.string(),
  arguments: z.unknown(),
});
export type ToolCallParams = z.infer<typeof ToolCallParams>;
export const ToolCallResult = z.looseObject({ success: z.boolean(), content: z.array(ToolContent) });
export type ToolCallResult = z.infer<typeof ToolCallResult>;
