import { z } from 'zod';

/** A JSON-RPC id: an integer (0 included) or a string. */
export const RequestId = z.union([z.number().int(), z.string()]);
export type RequestId = z.infer<typeof RequestId>;

/** Milliseconds since the Unix epoch. */
export const TimestampMs = z.number().int().nonnegative();

/** One piece of user input: `{text}` or `{type:"text", text}`; unknown fields pass through. */
export const UserInput = z.looseObject({
  type: z.literal('text').optional(),
  text: z.string(),
});
export type UserInput = z.infer<typeof UserInput>;

/** The empty params or result object `{}` (extra fields tolerated). */
export const EmptyObject = z.looseObject({});
export type EmptyObject = z.infer<typeof EmptyObject>;

/** Params of a method that takes only a thread id. */
export const ThreadIdParams = z.looseObject({ threadId: z.string() });
export type ThreadIdParams = z.infer<typeof ThreadIdParams>;
