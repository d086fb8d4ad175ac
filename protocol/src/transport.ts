/** Callbacks a transport delivers to its single consumer. */
export interface TransportHandlers {
  /** One decoded JSON value (batches are already split into their messages, in order). */
  onMessage(message: unknown): void;
  /** Input that could not be decoded; the stream goes on unless `onClose` follows. */
  onDecodeError?(error: Error): void;
  /** The transport ended; `error` says why when it was not a clean close. Called once. */
  onClose(error?: Error): void;
}

/** Moves whole JSON messages between two peers. Does NOT validate them: that is the connection's job. */
export interface MessageTransport {
  /** Starts delivery to `handlers`; called once, before any send. */
  start(handlers: TransportHandlers): void;
  /** Queues one message (or a batch array) for sending; throws TransportClosedError once closed. */
  send(message: unknown): void;
  /** Closes the transport; `onClose` fires once. Idempotent. */
  close(): void;
}
