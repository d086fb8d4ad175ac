/**
 * A hand-over (`page_ask_user`): the agent, or an external MCP client on a shared tab, asks the user to do something
 * on the page only they can do (sign in, solve a CAPTCHA, give a two-factor code, make a choice) and waits. The worker
 * keeps each open request and pushes a tab's list to its pages; only a page of the extension can answer it.
 */
import { z } from 'zod';

/** Most characters of the user's answer: a code, a name or a sentence, not a document. */
export const HANDOVER_ANSWER_MAX_CHARS = 2_000;

/** A request waiting for the user, as the side panel shows it. */
export const Handover = z.object({
  /** Unique key to answer it by. */
  key: z.string(),
  threadId: z.string(),
  /** The tab whose pages show it and may answer it. */
  tabId: z.number().int(),
  /** What the agent asks, in its own words. */
  message: z.string(),
  /** What the agent asked the user to type (a label like "the 6-digit code"); absent: an answer is optional. */
  answerLabel: z.string().optional(),
  /** An external MCP client that asks (its own name for itself, a claim). */
  caller: z.object({ name: z.string(), version: z.string().optional() }).optional(),
  createdAtMs: z.number(),
});
export type Handover = z.infer<typeof Handover>;

/** How the user ended a hand-over: they did it ("Done"), or they cannot ("I can't"). */
export const HandoverOutcome = z.enum(['done', 'cannot']);
export type HandoverOutcome = z.infer<typeof HandoverOutcome>;

/** The user's reply, as a page sends it. */
export const HandoverReply = z.object({
  key: z.string().min(1),
  outcome: HandoverOutcome,
  answer: z.string().max(HANDOVER_ANSWER_MAX_CHARS).optional(),
});
export type HandoverReply = z.infer<typeof HandoverReply>;
