/** The pending approvals of a tab as cards, shared by the side panel and the popup. */
import type { PendingApproval } from '../records';
import type { WorkerClient } from '../worker-client';
import { ApprovalCard, approvalQuestion } from './approval-card';

/** One card per approval; a choice is sent to the worker as `approval/decide`, whose rejection the card shows. */
export function ApprovalList(props: { client: WorkerClient; approvals: readonly PendingApproval[] }) {
  const { client, approvals } = props;
  return (
    <div class="approvals">
      {approvals.map((a) => (
        <ApprovalCard
          key={a.key}
          approval={a}
          onDecide={async (choice) => {
            await client.call('approval/decide', { key: a.key, choice });
          }}
        />
      ))}
    </div>
  );
}

/**
 * Says out loud that an approval waits, naming its question: an assertive live region that is always in the page (so
 * it announces a change) and holds the newest pending approval's question.
 */
export function ApprovalAnnouncer(props: { approvals: readonly PendingApproval[] }) {
  const newest = props.approvals.at(-1);
  return (
    <div class="sr-only" aria-live="assertive" aria-atomic="true" data-role="approval-announcer">
      {newest ? `Approval needed: ${approvalQuestion(newest)} ${newest.preview}` : ''}
    </div>
  );
}
