import { z } from 'zod';
import { TimestampMs, UserInput } from './common';

/** Where a turn is; everything but `running` is final. */
export const TurnStatus = z.enum(['running', 'completed', 'interrupted', 'failed']);
export type TurnStatus = z.infer<typeof TurnStatus>;

/** Why a turn failed, in words a user can act on. */
export const TurnError = z.looseObject({
  message: z.string(),
  code: z.union([z.string(), z.number()]).optional(),
});
export type TurnError = z.infer<typeof TurnError>;

/** One exchange: the user's input and everything the agent did about it. */
export const Turn = z.looseObject({
  id: z.string(),
  threadId: z.string(),
  status: TurnStatus,
  input: z.array(UserInput),
  startedAtMs: TimestampMs.optional(),
  completedAtMs: TimestampMs.optional(),
  error: TurnError.optional(),
});
export type Turn = z.infer<typeof Turn>;

export const TurnStartParams = z.looseObject({
  threadId: z.string(),
  input: z.array(UserInput).min(1),
  model: z.string().optional(),
});
export type TurnStartParams = z.infer<typeof TurnStartParams>;
export const TurnStartResult = z.looseObject({ turn: Turn });
export type TurnStartResult = z.infer<typeof TurnStartResult>;

export const TurnInterruptParams = z.looseObject({ threadId: z.string(), turnId: z.string() });
export type TurnInterruptParams = z.infer<typeof TurnInterruptParams>;
export const TurnInterruptResult = z.looseObject({ turn: Turn });
export type TurnInterruptResult = z.infer<typeof TurnInterruptResult>;

export const TurnSteerParams = z.looseObject({
  threadId: z.string(),
  expectedTurnId: z.string(),
  input: z.array(UserInput).min(1),
});
export type TurnSteerParams = z.infer<typeof TurnSteerParams>;
export const TurnSteerResult = z.looseObject({
  threadId: z.string(),
  turnId: z.string(),
  queued: z.boolean(),
});
export type TurnSteerResult = z.infer<typeof TurnSteerResult>;

export const TurnStartedNotification = z.looseObject({ turn: Turn });
export type TurnStartedNotification = z.infer<typeof TurnStartedNotification>;
export const TurnCompletedNotification = z.looseObject({ turn: Turn });
export type TurnCompletedNotification = z.infer<typeof TurnCompletedNotification>;
