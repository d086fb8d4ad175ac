/**
 * What a backend tells the extension it can do, derived from the client requests it implements: the `initialize`
 * capabilities are never written by hand, so they cannot drift from the handler table.
 */
import type { ClientRequestMethod, ServerCapabilities } from '@tether/protocol';

/** What a backend has besides its method table. */
export interface CapabilityFacts {
  /** It sends `approval/request` server requests. */
  readonly approvalRequests: boolean;
  /** It runs the client's declared tools through `item/tool/call`. */
  readonly clientTools: boolean;
}

/** The capability flags of a backend that implements `methods`. */
export function capabilitiesOf(
  methods: Iterable<ClientRequestMethod | string>,
  facts: CapabilityFacts,
): ServerCapabilities {
  const has = new Set<string>(methods);
  const threads = has.has('thread/start') && has.has('thread/read') && has.has('thread/list');
  return {
    thread: threads,
    turn: has.has('turn/start') && has.has('turn/interrupt'),
    // Items stream with every turn; history is replayed by thread/resume.
    itemStream: has.has('turn/start'),
    approvalRequests: facts.approvalRequests,
    eventReplay: has.has('thread/resume'),
    schemaExport: has.has('schema/export'),
    steer: has.has('turn/steer'),
    fork: has.has('thread/fork'),
    archive: has.has('thread/archive') && has.has('thread/unarchive'),
    modelList: has.has('model/list'),
    clientTools: facts.clientTools,
  };
}
