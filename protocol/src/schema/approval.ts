import { z } from 'zod';
import { EmptyObject } from './common';

/** A decision the client can give. */
export const ApprovalDecision = z.enum(['allow', 'allow_session', 'deny']);
export type ApprovalDecision = z.infer<typeof ApprovalDecision>;

/** How an approval ended: a client decision, or withdrawn (`cancelled`) or expired (`timeout`) by the server. */
export const ApprovalOutcome = z.enum(['allow', 'allow_session', 'deny', 'cancelled', 'timeout']);
export type ApprovalOutcome = z.infer<typeof ApprovalOutcome>;

const approvalRef = { threadId: z.string(), turnId: z.string(), requestId: z.string() };

/**
 * How far `allow_session` reaches: every later call of this tool in the thread (`tool`, the default), or later calls
 * with exactly this command only (`command`). Set by the backend, never by the model; the client words the choice
 * from it.
 */
export const ApprovalSessionScope = z.enum(['tool', 'command']);
export type ApprovalSessionScope = z.infer<typeof ApprovalSessionScope>;

/** What the server asks the user to approve. */
export const ApprovalRequestParams = z.looseObject({
  ...approvalRef,
  toolName: z.string(),
  preview: z.string(),
  arguments: z.unknown().optional(),
  choices: z.array(ApprovalDecision).min(1),
  sessionScope: ApprovalSessionScope.optional(),
});
export type ApprovalRequestParams = z.infer<typeof ApprovalRequestParams>;
export const ApprovalRequestResult = z.looseObject({ decision: ApprovalDecision });
export type ApprovalRequestResult = z.infer<typeof ApprovalRequestResult>;

export const ApprovalRequestedNotification = ApprovalRequestParams;
export type ApprovalRequestedNotification = ApprovalRequestParams;
export const ApprovalResolvedNotification = z.looseObject({ ...approvalRef, decision: ApprovalOutcome });
export type ApprovalResolvedNotification = z.infer<typeof ApprovalResolvedNotification>;

export const ApprovalResolveParams = z.looseObject({ ...approvalRef, decision: ApprovalDecision });
export type ApprovalResolveParams = z.infer<typeof ApprovalResolveParams>;
export const ApprovalResolveResult = EmptyObject;
export type ApprovalResolveResult = z.infer<typeof ApprovalResolveResult>;
