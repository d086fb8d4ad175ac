import { z } from 'zod';
import { EmptyObject, ThreadIdParams, TimestampMs } from './common';
import { Item } from './item';
import { Turn } from './turn';

/** Where a thread is: idle, running a turn, waiting on an approval, or broken. */
export const ThreadStatus = z
  .enum(['idle', 'running', 'waitingOnApproval', 'error'])
  .describe('Where a thread is: idle, running a turn, waiting on an approval, or broken.');
export type ThreadStatus = z.infer<typeof ThreadStatus>;

/** A conversation with the agent: its settings and state, without its items. */
export const Thread = z
  .looseObject({
    id: z.string(),
    title: z.string(),
    model: z.string().describe('The id of the model its turns use unless `turn/start` names another.'),
    status: ThreadStatus,
    archived: z.boolean().describe('Hidden from `thread/list` unless it asks for archived threads.'),
    ephemeral: z.boolean().describe('Kept in memory only: never saved, never listed, gone when the server stops.'),
    createdAtMs: TimestampMs,
    updatedAtMs: TimestampMs.describe('Last activity; `thread/list` sorts by it, newest first.'),
    cwd: z.string().optional().describe('Directory its tools run in; absent when the backend has no such notion.'),
    preview: z
      .string()
      .optional()
      .describe('The first line of its last message, for a list of threads; absent before the first message.'),
  })
  .describe('A conversation with the agent: its settings and state, without its items.');
export type Thread = z.infer<typeof Thread>;

const ThreadResult = z.looseObject({ thread: Thread });

/** `thread/start`: create a thread; `thread/started` follows the answer. */
export const ThreadStartParams = z
  .looseObject({
    title: z.string().optional(),
    model: z.string().optional().describe("A model id from `model/list`; the server's default when absent."),
    ephemeral: z.boolean().optional().describe('Keep the thread in memory only (default false).'),
    cwd: z
      .string()
      .optional()
      .describe("Directory for its tools, relative to the server's own; the server's when absent."),
  })
  .describe('`thread/start`: create a thread; `thread/started` follows the answer.');
export type ThreadStartParams = z.infer<typeof ThreadStartParams>;
/** The new thread. */
export const ThreadStartResult = ThreadResult.describe('The new thread.');
export type ThreadStartResult = z.infer<typeof ThreadStartResult>;

/** Where the page before this one ends, for `thread/history/read`; opaque; null or absent when none is older. */
export const HistoryCursor = z
  .string()
  .nullish()
  .describe(
    'Where the page before this one ends, for `thread/history/read`; opaque; null or absent when none is older.',
  );
export type HistoryCursor = z.infer<typeof HistoryCursor>;

/** `thread/read`: with `afterItemId`, every item after it; otherwise the latest page of the thread's history. */
export const ThreadReadParams = z
  .looseObject({
    threadId: z.string(),
    afterItemId: z
      .string()
      .optional()
      .describe('Read every item after this one (-32602 when the thread has no such item).'),
  })
  .describe(
    "`thread/read`: with `afterItemId`, every item after it; otherwise the latest page of the thread's history.",
  );
export type ThreadReadParams = z.infer<typeof ThreadReadParams>;
/**
 * The turns of the page's items that did not complete (`interrupted` or `failed`), oldest first; absent when all
 * completed or the backend does not say.
 */
export const UnfinishedTurns = z
  .array(Turn)
  .optional()
  .describe(
    "The turns of the page's items that did not complete (`interrupted` or `failed`), oldest first; absent when all completed or the backend does not say.",
  );
export type UnfinishedTurns = z.infer<typeof UnfinishedTurns>;

/** The thread and one page of its items, oldest first (the latest page, or those after `afterItemId`). */
export const ThreadReadResult = z
  .looseObject({ thread: Thread, items: z.array(Item), olderCursor: HistoryCursor, unfinishedTurns: UnfinishedTurns })
  .describe('The thread and one page of its items, oldest first (the latest page, or those after `afterItemId`).');
export type ThreadReadResult = z.infer<typeof ThreadReadResult>;

/** `thread/resume`: the latest page, the running turn, and (unless `subscribe` is false) the thread's notifications. */
export const ThreadResumeParams = z
  .looseObject({
    threadId: z.string(),
    afterItemId: z
      .string()
      .optional()
      .describe(
        "Resume after this item, the last one the client has: `items` are every item after it (those completed since, then the running turn's open ones) instead of the latest page; -32602 when the thread has no such item.",
      ),
    subscribe: z.boolean().optional().describe("Receive the thread's notifications on this connection (default true)."),
  })
  .describe(
    "`thread/resume`: the latest page, the running turn, and (unless `subscribe` is false) the thread's notifications.",
  );
export type ThreadResumeParams = z.infer<typeof ThreadResumeParams>;
/** The thread, its latest page of items (open items of the running turn last) and its running turn. */
export const ThreadResumeResult = z
  .looseObject({
    thread: Thread,
    items: z.array(Item),
    activeTurn: Turn.optional().describe('The running turn; absent when none runs.'),
    olderCursor: HistoryCursor,
    unfinishedTurns: UnfinishedTurns,
  })
  .describe('The thread, its latest page of items (open items of the running turn last) and its running turn.');
export type ThreadResumeResult = z.infer<typeof ThreadResumeResult>;

/** `thread/history/read`: the page of items before `cursor` (from `thread/read`, `thread/resume` or this method). */
export const ThreadHistoryReadParams = z
  .looseObject({
    threadId: z.string(),
    cursor: z.string().describe('An `olderCursor` of this thread.'),
  })
  .describe(
    '`thread/history/read`: the page of items before `cursor` (from `thread/read`, `thread/resume` or this method).',
  );
export type ThreadHistoryReadParams = z.infer<typeof ThreadHistoryReadParams>;
/** One older page of completed items, oldest first, and the cursor of the page before it. */
export const ThreadHistoryReadResult = z
  .looseObject({ items: z.array(Item), olderCursor: HistoryCursor, unfinishedTurns: UnfinishedTurns })
  .describe('One older page of completed items, oldest first, and the cursor of the page before it.');
export type ThreadHistoryReadResult = z.infer<typeof ThreadHistoryReadResult>;

/** `thread/list`: one page of saved threads, most recently active first. */
export const ThreadListParams = z
  .looseObject({
    cursor: z.string().nullish().describe('The `nextCursor` of the previous page; the first page when absent.'),
    limit: z.number().int().positive().max(1000).optional().describe('Page size; the server picks one when absent.'),
    archived: z.boolean().optional().describe('List archived threads instead of the others (default false).'),
    search: z
      .string()
      .max(200)
      .optional()
      .describe('Only threads whose title or preview contains this text, ignoring case; all when absent or blank.'),
  })
  .describe('`thread/list`: one page of saved threads, most recently active first.');
export type ThreadListParams = z.infer<typeof ThreadListParams>;
/** A page of threads and the cursor of the next one. */
export const ThreadListResult = z
  .looseObject({
    threads: z.array(Thread),
    nextCursor: z.string().nullish().describe('Pass it as `cursor` for the next page; null or absent on the last.'),
  })
  .describe('A page of threads and the cursor of the next one.');
export type ThreadListResult = z.infer<typeof ThreadListResult>;

/** `thread/archive`: hide a thread from `thread/list`; `thread/archived` follows. */
export const ThreadArchiveParams = ThreadIdParams.describe(
  '`thread/archive`: hide a thread from `thread/list`; `thread/archived` follows.',
);
export type ThreadArchiveParams = z.infer<typeof ThreadArchiveParams>;
/** The archived thread. */
export const ThreadArchiveResult = ThreadResult.describe('The archived thread.');
export type ThreadArchiveResult = z.infer<typeof ThreadArchiveResult>;
/** `thread/unarchive`: list an archived thread again; `thread/unarchived` follows. */
export const ThreadUnarchiveParams = ThreadIdParams.describe(
  '`thread/unarchive`: list an archived thread again; `thread/unarchived` follows.',
);
export type ThreadUnarchiveParams = z.infer<typeof ThreadUnarchiveParams>;
/** The thread, no longer archived. */
export const ThreadUnarchiveResult = ThreadResult.describe('The thread, no longer archived.');
export type ThreadUnarchiveResult = z.infer<typeof ThreadUnarchiveResult>;

/** `thread/fork`: a new thread holding a copy of this one's completed items, up to `afterItemId`. */
export const ThreadForkParams = z
  .looseObject({
    threadId: z.string(),
    afterItemId: z.string().optional().describe('The last item to copy (included); every item when absent.'),
    title: z.string().optional().describe('Title of the new thread; derived from the source when absent.'),
  })
  .describe("`thread/fork`: a new thread holding a copy of this one's completed items, up to `afterItemId`.");
export type ThreadForkParams = z.infer<typeof ThreadForkParams>;
/** The new thread; `thread/started` follows. */
export const ThreadForkResult = ThreadResult.describe('The new thread; `thread/started` follows.');
export type ThreadForkResult = z.infer<typeof ThreadForkResult>;

/** `thread/unsubscribe`: stop sending this thread's notifications to this connection. */
export const ThreadUnsubscribeParams = ThreadIdParams.describe(
  "`thread/unsubscribe`: stop sending this thread's notifications to this connection.",
);
export type ThreadUnsubscribeParams = z.infer<typeof ThreadUnsubscribeParams>;
/** Nothing: the connection is unsubscribed. */
export const ThreadUnsubscribeResult = EmptyObject.describe('Nothing: the connection is unsubscribed.');
export type ThreadUnsubscribeResult = z.infer<typeof ThreadUnsubscribeResult>;

/** `thread/started`: a thread was created (by `thread/start` or `thread/fork`). */
export const ThreadStartedNotification = z
  .looseObject({ thread: Thread })
  .describe('`thread/started`: a thread was created (by `thread/start` or `thread/fork`).');
export type ThreadStartedNotification = z.infer<typeof ThreadStartedNotification>;
/** `thread/status/changed`: a thread's status changed. */
export const ThreadStatusChangedNotification = z
  .looseObject({ threadId: z.string(), status: ThreadStatus })
  .describe("`thread/status/changed`: a thread's status changed.");
export type ThreadStatusChangedNotification = z.infer<typeof ThreadStatusChangedNotification>;
/** `thread/archived`: a thread was archived. */
export const ThreadArchivedNotification = ThreadIdParams.describe('`thread/archived`: a thread was archived.');
export type ThreadArchivedNotification = z.infer<typeof ThreadArchivedNotification>;
/** `thread/unarchived`: a thread was unarchived. */
export const ThreadUnarchivedNotification = ThreadIdParams.describe('`thread/unarchived`: a thread was unarchived.');
export type ThreadUnarchivedNotification = z.infer<typeof ThreadUnarchivedNotification>;
