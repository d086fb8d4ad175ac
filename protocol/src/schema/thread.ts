import { z } from 'zod';
import { EmptyObject, ThreadIdParams, TimestampMs } from './common';
import { Item } from './item';
import { Turn } from './turn';

/** Where a thread is: idle, running a turn, waiting on an approval, or broken. */
export const ThreadStatus = z.enum(['idle', 'running', 'waitingOnApproval', 'error']);
export type ThreadStatus = z.infer<typeof ThreadStatus>;

/** A conversation with the agent. */
export const Thread = z.looseObject({
  id: z.string(),
  title: z.string(),
  model: z.string(),
  status: ThreadStatus,
  archived: z.boolean(),
  ephemeral: z.boolean(),
  createdAtMs: TimestampMs,
  updatedAtMs: TimestampMs,
  cwd: z.string().optional(),
});
export type Thread = z.infer<typeof Thread>;

const ThreadResult = z.looseObject({ thread: Thread });

export const ThreadStartParams = z.looseObject({
  title: z.string().optional(),
  model: z.string().optional(),
  ephemeral: z.boolean().optional(),
  cwd: z.string().optional(),
});
export type ThreadStartParams = z.infer<typeof ThreadStartParams>;
export const ThreadStartResult = ThreadResult;
export type ThreadStartResult = z.infer<typeof ThreadStartResult>;

/**
 * Where the page before this one ends: pass it to `thread/history/read`. Opaque, valid only for its thread; null or
 * absent when this page starts the thread (a backend that does not page answers everything at once, without one).
 */
export const HistoryCursor = z
  .string()
  .nullish()
  .describe('Cursor of the older page (thread/history/read); null when none');
export type HistoryCursor = z.infer<typeof HistoryCursor>;

/** `thread/read`: with `afterItemId`, every item after it; otherwise the latest page of the thread's history. */
export const ThreadReadParams = z.looseObject({
  threadId: z.string(),
  afterItemId: z.string().optional(),
});
export type ThreadReadParams = z.infer<typeof ThreadReadParams>;
/** The thread and one page of its items, oldest first (the latest page, or those after `afterItemId`). */
export const ThreadReadResult = z.looseObject({ thread: Thread, items: z.array(Item), olderCursor: HistoryCursor });
export type ThreadReadResult = z.infer<typeof ThreadReadResult>;

/** `thread/resume`: the latest page, the running turn, and (unless `subscribe` is false) the thread's notifications. */
export const ThreadResumeParams = z.looseObject({
  threadId: z.string(),
  subscribe: z.boolean().optional(),
});
export type ThreadResumeParams = z.infer<typeof ThreadResumeParams>;
/** The thread, its latest page of items (open items of the running turn last) and its running turn. */
export const ThreadResumeResult = z.looseObject({
  thread: Thread,
  items: z.array(Item),
  activeTurn: Turn.optional(),
  olderCursor: HistoryCursor,
});
export type ThreadResumeResult = z.infer<typeof ThreadResumeResult>;

/** `thread/history/read`: the page of items before `cursor` (from `thread/read`, `thread/resume` or this method). */
export const ThreadHistoryReadParams = z.looseObject({
  threadId: z.string(),
  cursor: z.string(),
});
export type ThreadHistoryReadParams = z.infer<typeof ThreadHistoryReadParams>;
/** One older page of completed items, oldest first, and the cursor of the page before it. */
export const ThreadHistoryReadResult = z.looseObject({ items: z.array(Item), olderCursor: HistoryCursor });
export type ThreadHistoryReadResult = z.infer<typeof ThreadHistoryReadResult>;

export const ThreadListParams = z.looseObject({
  cursor: z.string().nullish(),
  limit: z.number().int().positive().max(1000).optional(),
  archived: z.boolean().optional(),
});
export type ThreadListParams = z.infer<typeof ThreadListParams>;
export const ThreadListResult = z.looseObject({
  threads: z.array(Thread),
  nextCursor: z.string().nullish(),
});
export type ThreadListResult = z.infer<typeof ThreadListResult>;

export const ThreadArchiveParams = ThreadIdParams;
export type ThreadArchiveParams = z.infer<typeof ThreadArchiveParams>;
export const ThreadArchiveResult = ThreadResult;
export type ThreadArchiveResult = z.infer<typeof ThreadArchiveResult>;
export const ThreadUnarchiveParams = ThreadIdParams;
export type ThreadUnarchiveParams = z.infer<typeof ThreadUnarchiveParams>;
export const ThreadUnarchiveResult = ThreadResult;
export type ThreadUnarchiveResult = z.infer<typeof ThreadUnarchiveResult>;

export const ThreadForkParams = z.looseObject({
  threadId: z.string(),
  afterItemId: z.string().optional(),
  title: z.string().optional(),
});
export type ThreadForkParams = z.infer<typeof ThreadForkParams>;
export const ThreadForkResult = ThreadResult;
export type ThreadForkResult = z.infer<typeof ThreadForkResult>;

export const ThreadUnsubscribeParams = ThreadIdParams;
export type ThreadUnsubscribeParams = z.infer<typeof ThreadUnsubscribeParams>;
export const ThreadUnsubscribeResult = EmptyObject;
export type ThreadUnsubscribeResult = z.infer<typeof ThreadUnsubscribeResult>;

export const ThreadStartedNotification = z.looseObject({ thread: Thread });
export type ThreadStartedNotification = z.infer<typeof ThreadStartedNotification>;
export const ThreadStatusChangedNotification = z.looseObject({ threadId: z.string(), status: ThreadStatus });
export type ThreadStatusChangedNotification = z.infer<typeof ThreadStatusChangedNotification>;
export const ThreadArchivedNotification = ThreadIdParams;
export type ThreadArchivedNotification = z.infer<typeof ThreadArchivedNotification>;
export const ThreadUnarchivedNotification = ThreadIdParams;
export type ThreadUnarchivedNotification = z.infer<typeof ThreadUnarchivedNotification>;
