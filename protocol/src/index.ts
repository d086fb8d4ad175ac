export * from './schema/common';
export * from './schema/envelope';
export * from './schema/thread';
export * from './schema/turn';
export * from './schema/item';
export * from './schema/approval';
export * from './schema/session';
export * from './schema/bridge';
export * from './methods';
export {
  ErrorCode,
  RpcError,
  TransportError,
  TransportClosedError,
  MessageTooLargeError,
  FrameError,
  RequestTimeoutError,
} from './errors';
export type { MessageTransport, TransportHandlers } from './transport';
export { createMemoryTransportPair } from './memory-transport';
