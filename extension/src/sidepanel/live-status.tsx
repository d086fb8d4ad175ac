/** The "working" line under the transcript: a polite status while the turn waits for a token or runs a tool. */
import { type Activity, activityText } from './activity';

/**
 * The status region is always in the document (a live region must exist before what it announces); its text is
 * there only while the turn is working, so screen readers hear "Working…" once and the line vanishes with the tokens.
 */
export function LiveStatus(props: { activity: Activity; awaitingApproval: boolean }) {
  const { activity } = props;
  return (
    <div class="live-status" role="status" aria-live="polite">
      {activity ? (
        <span class="working" data-activity={activity.kind}>
          <span class="spinner" aria-hidden="true" />
          {activityText(activity, props.awaitingApproval)}
        </span>
      ) : null}
    </div>
  );
}
