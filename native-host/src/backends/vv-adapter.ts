/**
 * Dialect adapter for vv-agent's current app-server wire: the methods of the seed protocol, with `"jsonrpc":"2.0"`
 * required on every message and approval outcomes allow/allow_session/deny/timeout (all Tether's too). So it passes
 * messages through untouched but for that field: added on the way to vv-agent, dropped on the way back (Tether's
 * output omits it). Ids, including server request ids, travel unchanged.
 */
import type { MessageTransport, TransportHandlers } from '@tether/protocol';
import type { AdapterOptions } from './dialect-core';

/** Creates the vv adapter (the host's dialect contract). */
export function createVvAdapter(upstream: MessageTransport, options: AdapterOptions): MessageTransport {
  return {
    start(handlers: TransportHandlers): void {
      upstream.start({
        onMessage: (message) => handlers.onMessage(mapMessages(message, withoutJsonrpc)),
        onDecodeError: (error) => {
          options.log(`vv-agent sent undecodable output: ${error.message}`);
          handlers.onDecodeError?.(error);
        },
        onClose: (error) => handlers.onClose(error),
      });
    },
    send(message: unknown): void {
      upstream.send(mapMessages(message, withJsonrpc));
    },
    close(): void {
      upstream.close();
    },
  };
}

function mapMessages(message: unknown, map: (m: Record<string, unknown>) => Record<string, unknown>): unknown {
  if (Array.isArray(message)) return message.map((m) => mapMessages(m, map));
  return typeof message === 'object' && message !== null ? map(message as Record<string, unknown>) : message;
}

/** vv-agent rejects messages without `"jsonrpc":"2.0"`; it goes first, as JSON-RPC peers write it. */
function withJsonrpc(m: Record<string, unknown>): Record<string, unknown> {
  return m.jsonrpc === '2.0' ? m : { jsonrpc: '2.0', ...m };
}

function withoutJsonrpc(m: Record<string, unknown>): Record<string, unknown> {
  if (!('jsonrpc' in m)) return m;
  const { jsonrpc: _omitted, ...rest } = m;
  return rest;
}
