import { z } from 'zod';
import { ClientTool } from './item';

/** Who the client is: its name, version and optional display title. */
export const ClientInfo = z
  .looseObject({ name: z.string(), version: z.string(), title: z.string().optional() })
  .describe('Who the client is: its name, version and optional display title.');
export type ClientInfo = z.infer<typeof ClientInfo>;

/** `initialize`: the first request of a connection; says who the client is and what it wants. */
export const InitializeParams = z
  .looseObject({
    clientInfo: ClientInfo,
    capabilities: z
      .looseObject({
        experimentalApi: z.boolean().optional().describe('Allow experimental methods (else they answer -32012).'),
        optOutNotificationMethods: z
          .array(z.string())
          .optional()
          .describe('Notification methods never to send on this connection.'),
        clientTools: z
          .array(ClientTool)
          .optional()
          .describe('Tools the client runs when the server sends `item/tool/call`.'),
      })
      .nullish()
      .describe('What the client asks of this connection; absent or null asks for nothing.'),
  })
  .describe('`initialize`: the first request of a connection; says who the client is and what it wants.');
export type InitializeParams = z.infer<typeof InitializeParams>;

/** What a server can do; a missing flag means unknown, `false` means not supported. */
export const ServerCapabilities = z
  .looseObject({
    thread: z.boolean().optional().describe('`thread/start`, `thread/read` and `thread/list`.'),
    turn: z.boolean().optional().describe('`turn/start` and `turn/interrupt`.'),
    itemStream: z.boolean().optional().describe('Items and deltas stream as notifications during a turn.'),
    approvalRequests: z.boolean().optional().describe('It sends `approval/request` before risky tool calls.'),
    eventReplay: z.boolean().optional().describe('`thread/resume` replays history and the running turn.'),
    schemaExport: z.boolean().optional().describe('`schema/export`.'),
    steer: z.boolean().optional().describe('`turn/steer`.'),
    fork: z.boolean().optional().describe('`thread/fork`.'),
    archive: z.boolean().optional().describe('`thread/archive` and `thread/unarchive`.'),
    modelList: z.boolean().optional().describe('`model/list`.'),
    clientTools: z.boolean().optional().describe('It runs `capabilities.clientTools` through `item/tool/call`.'),
  })
  .describe('What a server can do; a missing flag means unknown, `false` means not supported.');
export type ServerCapabilities = z.infer<typeof ServerCapabilities>;

/** The answer to `initialize`: who the server is, the protocol version it speaks and what it can do. */
export const InitializeResult = z
  .looseObject({
    serverInfo: z.looseObject({ name: z.string(), version: z.string() }),
    protocolVersion: z.string().describe('The protocol version, a date such as `2026-06-02`.'),
    supportedTransports: z.array(z.string()).describe('Transports the server offers, e.g. `stdio`.'),
    capabilities: ServerCapabilities,
  })
  .describe('The answer to `initialize`: who the server is, the protocol version it speaks and what it can do.');
export type InitializeResult = z.infer<typeof InitializeResult>;

/** `initialized` (client notification): the client is ready; the server may now send notifications. */
export const InitializedNotification = z
  .looseObject({})
  .optional()
  .describe('`initialized` (client notification): the client is ready; the server may now send notifications.');
export type InitializedNotification = z.infer<typeof InitializedNotification>;

/** `schema/export`: ask for the protocol's JSON Schema and TypeScript, as this server generates them. */
export const SchemaExportParams = z
  .looseObject({})
  .optional()
  .describe("`schema/export`: ask for the protocol's JSON Schema and TypeScript, as this server generates them.");
export type SchemaExportParams = z.infer<typeof SchemaExportParams>;
/** The protocol's generated schema: the JSON Schema bundle and the TypeScript bundle's text. */
export const SchemaExportResult = z
  .looseObject({
    jsonSchema: z
      .record(z.string(), z.unknown())
      .describe('The bundle of protocol/schema/json/tether-protocol.schemas.json.'),
    typescript: z.string().describe('The text of protocol/schema/typescript/tether-protocol.ts.'),
  })
  .describe("The protocol's generated schema: the JSON Schema bundle and the TypeScript bundle's text.");
export type SchemaExportResult = z.infer<typeof SchemaExportResult>;

/** A model the server can run. */
export const ModelInfo = z
  .looseObject({
    id: z.string().describe('What `thread/start` and `turn/start` take as `model`.'),
    displayName: z.string().optional(),
    provider: z.string().optional(),
    isDefault: z.boolean().optional().describe('The model of a thread started without one.'),
  })
  .describe('A model the server can run.');
export type ModelInfo = z.infer<typeof ModelInfo>;
/** `model/list`: the models this server can run. */
export const ModelListParams = z.looseObject({}).optional().describe('`model/list`: the models this server can run.');
export type ModelListParams = z.infer<typeof ModelListParams>;
/** The models, possibly none. */
export const ModelListResult = z.looseObject({ models: z.array(ModelInfo) }).describe('The models, possibly none.');
export type ModelListResult = z.infer<typeof ModelListResult>;

/** `error`: an error the server reports outside any response. */
export const ErrorNotification = z
  .looseObject({
    message: z.string(),
    threadId: z.string().optional().describe('The thread it concerns, if any.'),
    turnId: z.string().optional().describe('The turn it concerns, if any.'),
    code: z
      .union([z.string(), z.number()])
      .optional()
      .describe("A JSON-RPC error code, or the backend's own error name."),
    willRetry: z.boolean().optional().describe('The server retries by itself; the turn goes on.'),
  })
  .describe('`error`: an error the server reports outside any response.');
export type ErrorNotification = z.infer<typeof ErrorNotification>;
/** `warning`: something the user should know that did not stop anything. */
export const WarningNotification = z
  .looseObject({
    message: z.string(),
    threadId: z.string().optional().describe('The thread it concerns, if any.'),
    turnId: z.string().optional().describe('The turn it concerns, if any.'),
  })
  .describe('`warning`: something the user should know that did not stop anything.');
export type WarningNotification = z.infer<typeof WarningNotification>;
