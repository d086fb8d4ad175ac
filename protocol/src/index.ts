export * from './schema/common';
export * from './schema/envelope';
export * from './schema/thread';
export * from './schema/turn';
export * from './schema/item';
export * from './schema/approval';
export * from './schema/session';
export * from './schema/bridge';
export * from './schema/bridge-config';
export * from './schema/bridge-files';
export * from './methods';
export {
  ErrorCode,
  RpcError,
  TransportError,
  TransportClosedError,
  MessageTooLargeError,
  FrameError,
  RequestTimeoutError,
  NotificationTimeoutError,
  errorMessage,
} from './errors';
export type { MessageTransport, TransportHandlers } from './transport';
export { createMemoryTransportPair, type MemoryTransportOptions } from './memory-transport';
export { Connection, serverInbound, clientInbound, hostClientInbound, hostServerInbound } from './connection';
export type {
  Side,
  ConnectionOptions,
  RequestOptions,
  RequestContext,
  RequestHandler,
  RequestHandlers,
  NotificationHandlers,
  FallbackRequestHandler,
  Settle,
} from './connection';
export { NotificationRecorder } from './notification-recorder';
export type { ReceivedNotification, RecorderOptions, WaitOptions } from './notification-recorder';
export { AppServerClient } from './client';
export type { ClientInbound, ClientOutbound, InitializeOptions, AppServerClientOptions } from './client';
export * from './codec';
export {
  generateJsonSchema,
  generateJsonSchemaBundle,
  generateTypeScript,
  renderJsonSchemaFiles,
  renderTypeScriptFiles,
  JSON_SCHEMA_BUNDLE_FILE,
  TYPESCRIPT_BUNDLE_FILE,
} from './schema-export';
export type { MethodCatalogueEntry, MessageDirection } from './schema-export';
export {
  MASK,
  MIN_KNOWN_SECRET_LENGTH,
  Redactor,
  isSecretName,
  redactText,
  redactUrl,
  secretsInEnv,
  secretsInUrl,
} from './redact';
export {
  HOST_PACKAGE,
  hostCommand,
  type HostVerb,
  type CommandContext,
  type CommandOptions,
} from './host-package';
