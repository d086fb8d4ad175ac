/**
 * The byte-level Backend interface over a MessageTransport that carries objects (the embedded app-server behind a
 * memory pair, or a dialect adapter). Each message is parsed once on the way in and serialised once on the way out.
 */
import type { MessageTransport } from '@tether/protocol';
import { ErrorCode } from '@tether/protocol/errors';
import type { BackendSink } from './types';

/** Connects `transport` to `sink`; returns the function that sends one JSON text to the transport. */
export function attachTransport(
  transport: MessageTransport,
  sink: BackendSink,
  onClose: (error?: Error) => void,
): (payload: Buffer) => void {
  const emit = (message: unknown): void => {
    const bytes = Buffer.from(JSON.stringify(message), 'utf8');
    sink.message(bytes, 0, bytes.length);
  };
  transport.start({
    onMessage: emit,
    onDecodeError: (error) => sink.problem(error.message),
    onClose,
  });
  return (payload) => {
    let message: unknown;
    try {
      message = JSON.parse(payload.toString('utf8'));
    } catch (error) {
      emit({ id: null, error: { code: ErrorCode.ParseError, message: `Parse error: ${(error as Error).message}` } });
      return;
    }
    try {
      transport.send(message);
    } catch {
      // Closed: the close is reported through onClose, and pending requests are failed by the bridge.
    }
  };
}
