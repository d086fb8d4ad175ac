/** The subscription every page makes to the worker, as hooks: its state, the link, the tab's approvals, the models. */
import type { ModelInfo } from '@tether/protocol';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { WorkerPush } from '../messages';
import type { Handover } from '../handover';
import type { PendingApproval, WorkerState } from '../records';
import type { WorkerClient } from '../worker-client';

/** What a page shows of the worker. */
export interface WorkerView {
  /** Undefined until the worker's first `state` arrives. */
  readonly state: WorkerState | undefined;
  /** Whether the page's Port to the worker is open (false while the worker restarts). */
  readonly linkUp: boolean;
  /** The pending approvals of the page's tab (always empty on the options page). */
  readonly approvals: readonly PendingApproval[];
  /** The open hand-over requests of the page's tab (`page_ask_user`), oldest first. */
  readonly handovers: readonly Handover[];
}

/** Callbacks for what a page does beyond showing state: each runs for every message or link change. */
export interface WorkerHandlers {
  /** Every pushed message, after the hook has taken its state and approvals. */
  readonly onPush?: (message: WorkerPush) => void;
  /** The link went up (true) or down (false). */
  readonly onLink?: (up: boolean) => void;
}

/**
 * Subscribes the page to `client` for as long as it is mounted. Handlers may change between renders: the latest ones
 * run, without resubscribing (a resubscription would replay nothing, and messages in between would be lost).
 */
export function useWorker(client: WorkerClient, handlers: WorkerHandlers = {}): WorkerView {
  const [state, setState] = useState<WorkerState>();
  const [linkUp, setLinkUp] = useState(false);
  const [approvals, setApprovals] = useState<readonly PendingApproval[]>([]);
  const [handovers, setHandovers] = useState<readonly Handover[]>([]);
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    const offLink = client.onLink((up) => {
      setLinkUp(up);
      latest.current.onLink?.(up);
    });
    const off = client.onMessage((m) => {
      if (m.type === 'state') setState(m.state);
      if (m.type === 'approvals') setApprovals(m.approvals);
      if (m.type === 'handovers') setHandovers(m.handovers);
      latest.current.onPush?.(m);
    });
    return () => {
      off();
      offLink();
    };
  }, [client]);
  return { state, linkUp, approvals, handovers };
}

/** The backend's models while `enabled` (connected, and the backend lists models); empty otherwise or on failure. */
export function useModels(client: WorkerClient, enabled: boolean): readonly ModelInfo[] {
  const [models, setModels] = useState<readonly ModelInfo[]>([]);
  useEffect(() => {
    if (!enabled) return;
    client
      .call('model/list', {})
      .then((r) => setModels(r.models))
      .catch(() => setModels([]));
  }, [client, enabled]);
  return models;
}
