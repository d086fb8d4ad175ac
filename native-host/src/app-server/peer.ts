/** What the engine needs of one client connection (implemented by AppServerSession). */
import type {
  ClientTool,
  ServerNotificationMethod,
  ServerNotificationParams,
  ServerRequestMethod,
  ServerRequestParams,
  ServerRequestResult,
} from '@tether/protocol';

/** One connected client, as the engine sees it. */
export interface Peer {
  /** Small number for logs. */
  readonly id: number;
  /** Tools the client declared at initialize. */
  readonly clientTools: readonly ClientTool[];
  /** False once the connection closed. */
  readonly isOpen: boolean;
  /** Sends a notification (dropped when opted out; held before `initialized` or while `threadId` is held). */
  notify<M extends ServerNotificationMethod>(method: M, params: ServerNotificationParams<M>, threadId?: string): void;
  /** Sends a server request; rejects on error response, close, or abort of `signal`. */
  request<M extends ServerRequestMethod>(
    method: M,
    params: ServerRequestParams<M>,
    signal: AbortSignal,
  ): Promise<ServerRequestResult<M>>;
  /**
   * Holds this thread's notifications back until the returned release is called, so a snapshot answer (thread/resume)
   * goes out before any notification produced after the snapshot was taken.
   */
  hold(threadId: string): () => void;
  /** Resolves once what was sent so far has been written out (a fast stream awaits this to respect backpressure). */
  flushed(): Promise<void>;
  /** The browser this client relays for (the daemon's connections say), so a call it started can go to its return. */
  readonly group?: string;
  /**
   * Resolves with the first peer `find` picks among the engine's open clients, asking again as clients initialize
   * or subscribe, or with undefined after the engine's client-tool wait (none by default) or once `signal` aborts.
   */
  waitForClient(find: (clients: Iterable<Peer>) => Peer | undefined, signal: AbortSignal): Promise<Peer | undefined>;
}
