import { z } from 'zod';
import { EmptyObject } from './common';

/** A decision the client can give: allow once, allow for the session (see ApprovalSessionScope), or deny. */
export const ApprovalDecision = z
  .enum(['allow', 'allow_session', 'deny'])
  .describe('A decision the client can give: allow once, allow for the session (see ApprovalSessionScope), or deny.');
export type ApprovalDecision = z.infer<typeof ApprovalDecision>;

/** How an approval ended: a client decision, or withdrawn (`cancelled`) or expired (`timeout`) by the server. */
export const ApprovalOutcome = z
  .enum(['allow', 'allow_session', 'deny', 'cancelled', 'timeout'])
  .describe(
    'How an approval ended: a client decision, or withdrawn (`cancelled`) or expired (`timeout`) by the server.',
  );
export type ApprovalOutcome = z.infer<typeof ApprovalOutcome>;

const approvalRef = {
  threadId: z.string(),
  turnId: z.string(),
  requestId: z.string().describe('Identifies the approval; set by the server.'),
};

/** Reach of `allow_session`: the tool in the rest of the thread (`tool`, default) or this exact command (`command`). */
export const ApprovalSessionScope = z
  .enum(['tool', 'command'])
  .describe(
    'Reach of `allow_session`: the tool in the rest of the thread (`tool`, default) or this exact command (`command`).',
  );
export type ApprovalSessionScope = z.infer<typeof ApprovalSessionScope>;

/** `approval/request` (server request): ask the user whether a tool call may run. */
export const ApprovalRequestParams = z
  .looseObject({
    ...approvalRef,
    toolName: z.string(),
    preview: z.string().describe('What the call will do, for the user to read (e.g. the command line).'),
    arguments: z.unknown().optional().describe("The call's arguments as the model gave them."),
    choices: z.array(ApprovalDecision).min(1).describe('The decisions offered; an answer must be one of them.'),
    sessionScope: ApprovalSessionScope.optional().describe(
      'Set by the backend, never by the model; the client words the `allow_session` choice from it.',
    ),
  })
  .describe('`approval/request` (server request): ask the user whether a tool call may run.');
export type ApprovalRequestParams = z.infer<typeof ApprovalRequestParams>;
/** The answer to `approval/request`: one of the offered `choices`. */
export const ApprovalRequestResult = z
  .looseObject({ decision: ApprovalDecision })
  .describe('The answer to `approval/request`: one of the offered `choices`.');
export type ApprovalRequestResult = z.infer<typeof ApprovalRequestResult>;

/** `approval/requested`: an approval is waiting, sent before its `approval/request` (same params). */
export const ApprovalRequestedNotification = ApprovalRequestParams.describe(
  '`approval/requested`: an approval is waiting, sent before its `approval/request` (same params).',
);
export type ApprovalRequestedNotification = ApprovalRequestParams;
/** `approval/resolved`: an approval ended, by a decision, or withdrawn or timed out by the server. */
export const ApprovalResolvedNotification = z
  .looseObject({ ...approvalRef, decision: ApprovalOutcome })
  .describe('`approval/resolved`: an approval ended, by a decision, or withdrawn or timed out by the server.');
export type ApprovalResolvedNotification = z.infer<typeof ApprovalResolvedNotification>;

/** `approval/resolve`: decide an approval without answering its server request (same effect). */
export const ApprovalResolveParams = z
  .looseObject({ ...approvalRef, decision: ApprovalDecision })
  .describe('`approval/resolve`: decide an approval without answering its server request (same effect).');
export type ApprovalResolveParams = z.infer<typeof ApprovalResolveParams>;
/** Nothing: the approval is decided; `approval/resolved` follows. */
export const ApprovalResolveResult = EmptyObject.describe(
  'Nothing: the approval is decided; `approval/resolved` follows.',
);
export type ApprovalResolveResult = z.infer<typeof ApprovalResolveResult>;
