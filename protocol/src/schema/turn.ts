import { z } from 'zod';
import { TimestampMs, UserError, UserInput } from './common';

/** Where a turn is; everything but `running` is final. */
export const TurnStatus = z
  .enum(['running', 'completed', 'interrupted', 'failed'])
  .describe('Where a turn is; everything but `running` is final.');
export type TurnStatus = z.infer<typeof TurnStatus>;

/** Why a turn failed, in words a user can act on. */
export const TurnError = UserError.describe('Why a turn failed, in words a user can act on.');
export type TurnError = z.infer<typeof TurnError>;

/** One exchange: the user's input and everything the agent did about it. */
export const Turn = z
  .looseObject({
    id: z.string(),
    threadId: z.string(),
    status: TurnStatus,
    input: z.array(UserInput).describe('What the user sent to start the turn; may be empty in `turn/completed`.'),
    startedAtMs: TimestampMs.optional().describe('When the turn started; absent when the backend does not say.'),
    completedAtMs: TimestampMs.optional().describe('When the turn ended; absent while it is `running`.'),
    error: TurnError.optional().describe(
      'Why it failed (set when `status` is `failed`), or why it was `interrupted` when the user did not stop it.',
    ),
  })
  .describe("One exchange: the user's input and everything the agent did about it.");
export type Turn = z.infer<typeof Turn>;

/** `turn/start`: run the agent on new user input in a thread that has no running turn. */
export const TurnStartParams = z
  .looseObject({
    threadId: z.string(),
    input: z.array(UserInput).min(1),
    model: z.string().optional().describe("The model for this turn; the thread's model when absent."),
  })
  .describe('`turn/start`: run the agent on new user input in a thread that has no running turn.');
export type TurnStartParams = z.infer<typeof TurnStartParams>;
/** The new turn, `running`; the answer goes out before `turn/started`. */
export const TurnStartResult = z
  .looseObject({ turn: Turn })
  .describe('The new turn, `running`; the answer goes out before `turn/started`.');
export type TurnStartResult = z.infer<typeof TurnStartResult>;

/** `turn/interrupt`: stop the running turn; its pending approvals are withdrawn. */
export const TurnInterruptParams = z
  .looseObject({ threadId: z.string(), turnId: z.string() })
  .describe('`turn/interrupt`: stop the running turn; its pending approvals are withdrawn.');
export type TurnInterruptParams = z.infer<typeof TurnInterruptParams>;
/** The interrupted turn; `turn/completed` with status `interrupted` follows. */
export const TurnInterruptResult = z
  .looseObject({ turn: Turn })
  .describe('The interrupted turn; `turn/completed` with status `interrupted` follows.');
export type TurnInterruptResult = z.infer<typeof TurnInterruptResult>;

/** `turn/steer`: add user input to the running turn, if it is still `expectedTurnId`. */
export const TurnSteerParams = z
  .looseObject({
    threadId: z.string(),
    expectedTurnId: z.string().describe('The turn the client saw running; another one answers -32031.'),
    input: z.array(UserInput).min(1),
  })
  .describe('`turn/steer`: add user input to the running turn, if it is still `expectedTurnId`.');
export type TurnSteerParams = z.infer<typeof TurnSteerParams>;
/** The turn that took the input. */
export const TurnSteerResult = z
  .looseObject({
    threadId: z.string(),
    turnId: z.string(),
    queued: z.boolean().describe("True when the input waits for the turn's next model step."),
  })
  .describe('The turn that took the input.');
export type TurnSteerResult = z.infer<typeof TurnSteerResult>;

/** `turn/started`: a turn began running. */
export const TurnStartedNotification = z.looseObject({ turn: Turn }).describe('`turn/started`: a turn began running.');
export type TurnStartedNotification = z.infer<typeof TurnStartedNotification>;
/** `turn/completed`: a turn ended, as `completed`, `interrupted` or `failed`. */
export const TurnCompletedNotification = z
  .looseObject({ turn: Turn })
  .describe('`turn/completed`: a turn ended, as `completed`, `interrupted` or `failed`.');
export type TurnCompletedNotification = z.infer<typeof TurnCompletedNotification>;
