/** The pending approvals of a tab as cards, shared by the side panel and the popup. */
import type { PendingApproval } from '../records';
import type { WorkerClient } from '../worker-client';
import { ApprovalCard } from './approval-card';

/** One card per approval; a choice is sent to the worker as `approval/decide`, whose rejection the card shows. */
export function ApprovalList(props: { client: WorkerClient; approvals: readonly PendingApproval[] }) {
  const { client, approvals } = props;
  return (
    <div class="approvals" aria-live="polite">
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
