import { z } from 'zod';
import { ClientTool } from './item';

/** Who the client is. */
export const ClientInfo = z.looseObject({ name: z.string(), version: z.string(), title: z.string().optional() });
export type ClientInfo = z.infer<typeof ClientInfo>;

export const InitializeParams = z.looseObject({
  clientInfo: ClientInfo,
  capabilities: z
    .looseObject({
      experimentalApi: z.boolean().optional(),
      optOutNotificationMethods: z.array(z.string()).optional(),
      clientTools: z.array(ClientTool).optional(),
    })
    .nullish(),
});
export type InitializeParams = z.infer<typeof InitializeParams>;

/** What a server can do; a missing flag means unknown, `false` means not supported. */
export const ServerCapabilities = z.looseObject({
  thread: z.boolean().optional(),
  turn: z.boolean().optional(),
  itemStream: z.boolean().optional(),
  approvalRequests: z.boolean().optional(),
  eventReplay: z.boolean().optional(),
  schemaExport: z.boolean().optional(),
  steer: z.boolean().optional(),
  fork: z.boolean().optional(),
  archive: z.boolean().optional(),
  modelList: z.boolean().optional(),
  clientTools: z.boolean().optional(),
});
export type ServerCapabilities = z.infer<typeof ServerCapabilities>;

export const InitializeResult = z.looseObject({
  serverInfo: z.looseObject({ name: z.string(), version: z.string() }),
  protocolVersion: z.string(),
  supportedTransports: z.array(z.string()),
  capabilities: ServerCapabilities,
});
export type InitializeResult = z.infer<typeof InitializeResult>;

export const InitializedNotification = z.looseObject({}).optional();
export type InitializedNotification = z.infer<typeof InitializedNotification>;

export const SchemaExportParams = z.looseObject({}).optional();
export type SchemaExportParams = z.infer<typeof SchemaExportParams>;
export const SchemaExportResult = z.looseObject({
  jsonSchema: z.record(z.string(), z.unknown()),
  typescript: z.string(),
});
export type SchemaExportResult = z.infer<typeof SchemaExportResult>;

/** A model the server can run. */
export const ModelInfo = z.looseObject({
  id: z.string(),
  displayName: z.string().optional(),
  provider: z.string().optional(),
  isDefault: z.boolean().optional(),
});
export type ModelInfo = z.infer<typeof ModelInfo>;
export const ModelListParams = z.looseObject({}).optional();
export type ModelListParams = z.infer<typeof ModelListParams>;
export const ModelListResult = z.looseObject({ models: z.array(ModelInfo) });
export type ModelListResult = z.infer<typeof ModelListResult>;

/** An error the server reports outside any response. */
export const ErrorNotification = z.looseObject({
  message: z.string(),
  threadId: z.string().optional(),
  turnId: z.string().optional(),
  code: z.union([z.string(), z.number()]).optional(),
  willRetry: z.boolean().optional(),
});
export type ErrorNotification = z.infer<typeof ErrorNotification>;
export const WarningNotification = z.looseObject({
  message: z.string(),
  threadId: z.string().optional(),
  turnId: z.string().optional(),
});
export type WarningNotification = z.infer<typeof WarningNotification>;
