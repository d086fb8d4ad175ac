/**
 * Notifications the event router did not deliver: an unknown method is logged once (a backend may send one per delta);
 * a known one that does not fit the protocol is logged and said in its thread's pages, so the user knows something
 * the backend sent is missing from the transcript.
 */
import type { Notice } from '../../shared/records';
import { type RawNotification, threadIdOf } from './event-router';

/** Where a rejected notification is said: the pages of a thread, or every page when it names none. */
export interface RejectedNotificationsDeps {
  pagesOf(threadId: string | undefined): ReadonlyArray<{ send(message: { type: 'notice'; notice: Notice }): void }>;
  log(line: string): void;
}

/** Reports what the router rejected; one per worker. */
export class RejectedNotifications {
  private readonly unknownMethods = new Set<string>();

  constructor(private readonly deps: RejectedNotificationsDeps) {}

  /** The router's `rejected` callback: `known` says whether the method is one the extension handles. */
  report(m: RawNotification, known: boolean, why: string): void {
    if (!known) {
      if (!this.unknownMethods.has(m.method)) this.deps.log(`ignored notification ${m.method}: ${why}`);
      this.unknownMethods.add(m.method);
      return;
    }
    this.deps.log(`dropped ${m.method}, which does not fit the protocol: ${why}`);
    const notice: Notice = {
      kind: 'error',
      message: `Could not show ${m.method} from the backend, which sent it malformed: ${why}`,
    };
    for (const v of this.deps.pagesOf(threadIdOf(m.params))) v.send({ type: 'notice', notice });
  }
}
