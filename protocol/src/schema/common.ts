import { z } from 'zod';

/** A JSON-RPC request id: an integer (0 included) or a string. */
export const RequestId = z
  .union([z.number().int(), z.string()])
  .describe('A JSON-RPC request id: an integer (0 included) or a string.');
export type RequestId = z.infer<typeof RequestId>;

/** A point in time in milliseconds since the Unix epoch (UTC). */
export const TimestampMs = z
  .number()
  .int()
  .nonnegative()
  .describe('A point in time in milliseconds since the Unix epoch (UTC).');

/** One piece of user input: `{text}` or `{type:"text", text}`; unknown fields pass through. */
export const UserInput = z
  .looseObject({
    type: z.literal('text').optional().describe('Always `text` when present; the seed format leaves it out.'),
    text: z.string(),
  })
  .describe('One piece of user input: `{text}` or `{type:"text", text}`; unknown fields pass through.');
export type UserInput = z.infer<typeof UserInput>;

/** An error in words a user can act on: a message and, when known, a code. */
export const UserError = z
  .looseObject({
    message: z.string(),
    code: z
      .union([z.string(), z.number()])
      .optional()
      .describe("A JSON-RPC error code, or the backend's own error name."),
  })
  .describe('An error in words a user can act on: a message and, when known, a code.');
export type UserError = z.infer<typeof UserError>;

/** The empty params or result object `{}` (extra fields tolerated). */
export const EmptyObject = z
  .looseObject({})
  .describe('The empty params or result object `{}` (extra fields tolerated).');
export type EmptyObject = z.infer<typeof EmptyObject>;

/** Params that name only a thread: `{threadId}`. */
export const ThreadIdParams = z
  .looseObject({ threadId: z.string() })
  .describe('Params that name only a thread: `{threadId}`.');
export type ThreadIdParams = z.infer<typeof ThreadIdParams>;
