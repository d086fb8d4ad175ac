/**
 * JSON Schema and TypeScript export of the protocol, derived from the method table and the Zod schemas with zod's
 * own `z.toJSONSchema`. Runs anywhere (no node:*): the app-server answers `schema/export` with it, and
 * `tether app-server generate-json-schema` / `generate-ts` write it to disk.
 */
import { z } from 'zod';
import { jsonSchemaBundleToTypeScript } from './json-schema-to-ts';
import {
  bridgeNotifications,
  bridgeRequests,
  clientNotifications,
  clientRequests,
  PROTOCOL_VERSION,
  serverNotifications,
  serverRequests,
  type RequestSpec,
} from './methods';
import * as approval from './schema/approval';
import * as bridge from './schema/bridge';
import * as bridgeConfig from './schema/bridge-config';
import * as bridgeFiles from './schema/bridge-files';
import * as common from './schema/common';
import * as envelope from './schema/envelope';
import * as item from './schema/item';
import * as session from './schema/session';
import * as thread from './schema/thread';
import * as turn from './schema/turn';

/** File name of the self-contained bundle among the JSON Schema files. */
export const JSON_SCHEMA_BUNDLE_FILE = 'tether-protocol.schemas.json';
/** File name of the TypeScript bundle. */
export const TYPESCRIPT_BUNDLE_FILE = 'tether-protocol.ts';

/** Who sends a group of messages to whom. */
export type MessageDirection = 'clientToServer' | 'serverToClient' | 'clientToHost' | 'hostToClient';

/** One row of the method catalogue in the bundle: wire name and the names of its schemas. */
export interface MethodCatalogueEntry {
  readonly method: string;
  readonly kind: 'request' | 'notification';
  readonly direction: MessageDirection;
  readonly params: string;
  /** True when params may be left out (the schema accepts undefined). */
  readonly paramsOptional: boolean;
  readonly result?: string;
}

/** A group of rows of methods.ts, named as the TypeScript bundle names its map type. */
interface Group {
  readonly typeName: string;
  readonly description: string;
  readonly direction: MessageDirection;
  readonly requests?: Readonly<Record<string, RequestSpec>>;
  readonly notifications?: Readonly<Record<string, z.ZodType>>;
}

const groups: readonly Group[] = [
  {
    typeName: 'ClientRequests',
    description: 'Requests the client sends to the server, by wire method.',
    direction: 'clientToServer',
    requests: clientRequests,
  },
  {
    typeName: 'ClientNotifications',
    description: 'Notifications the client sends to the server, by wire method.',
    direction: 'clientToServer',
    notifications: clientNotifications,
  },
  {
    typeName: 'ServerRequests',
    description: 'Requests the server sends to the client, by wire method.',
    direction: 'serverToClient',
    requests: serverRequests,
  },
  {
    typeName: 'ServerNotifications',
    description: 'Notifications the server sends to the client, by wire method.',
    direction: 'serverToClient',
    notifications: serverNotifications,
  },
  {
    typeName: 'BridgeRequests',
    description: 'Requests the client sends to the native host itself, by wire method; they never reach a backend.',
    direction: 'clientToHost',
    requests: bridgeRequests,
  },
  {
    typeName: 'BridgeNotifications',
    description: 'Notifications the native host sends to the client about itself, by wire method.',
    direction: 'hostToClient',
    notifications: bridgeNotifications,
  },
];

// Modules whose exported schemas become named definitions, in a fixed order so output is stable.
const schemaModules = [
  common,
  envelope,
  thread,
  turn,
  item,
  approval,
  session,
  bridge,
  bridgeConfig,
  bridgeFiles,
] as const;

interface Catalogue {
  readonly registry: z.core.$ZodRegistry<{ id: string }>;
  readonly methods: MethodCatalogueEntry[];
  readonly groups: { typeName: string; description: string; methods: MethodCatalogueEntry[] }[];
}

/**
 * The name of every exported schema of `modules` (protocol/src/schema by default), so each generated definition is
 * named as the code names it. Throws on an alias (`export const B = A`), which would give one schema two names; each
 * export must be its own schema, as `A.describe('...')` makes it (a definition that refers to A).
 */
export function exportedSchemaNames(
  modules: readonly Record<string, unknown>[] = schemaModules,
): Map<z.ZodType, string> {
  const names = new Map<z.ZodType, string>();
  for (const module of modules) {
    for (const [name, value] of Object.entries(module)) {
      if (!(value instanceof z.ZodType)) continue;
      const other = names.get(value);
      if (other !== undefined) {
        throw new Error(
          `Schemas ${other} and ${name} are one object, so the generated schema could name only one of them: ` +
            `write \`export const ${name} = ${other}.describe('...')\` to make ${name} its own definition`,
        );
      }
      names.set(value, name);
    }
  }
  return names;
}

/** Registers every exported schema under its export name and catalogues each row of methods.ts by those names. */
function buildCatalogue(): Catalogue {
  const names = exportedSchemaNames();
  const registry = z.registry<{ id: string }>();
  for (const [schema, id] of names) registry.add(schema, { id });
  const nameOf = (schema: z.ZodType, method: string, part: string): string => {
    const name = names.get(schema);
    if (name === undefined) {
      throw new Error(
        `The ${part} schema of ${method} is not exported from protocol/src/schema: export it there under the name ` +
          'the generated schema should give it',
      );
    }
    return name;
  };
  const methods: MethodCatalogueEntry[] = [];
  const grouped: Catalogue['groups'] = [];
  for (const g of groups) {
    const entries: MethodCatalogueEntry[] = [];
    for (const [method, spec] of Object.entries(g.requests ?? {})) {
      entries.push({
        method,
        kind: 'request',
        direction: g.direction,
        params: nameOf(spec.params, method, 'params'),
        paramsOptional: spec.params.safeParse(undefined).success,
        result: nameOf(spec.result, method, 'result'),
      });
    }
    for (const [method, schema] of Object.entries(g.notifications ?? {})) {
      const params = nameOf(schema, method, 'params');
      const paramsOptional = schema.safeParse(undefined).success;
      entries.push({ method, kind: 'notification', direction: g.direction, params, paramsOptional });
    }
    methods.push(...entries);
    grouped.push({ typeName: g.typeName, description: g.description, methods: entries });
  }
  return { registry, methods, groups: grouped };
}

function toJsonSchemas(catalogue: Catalogue, uri: (id: string) => string): Record<string, Record<string, unknown>> {
  return z.toJSONSchema(catalogue.registry, { uri }).schemas as Record<string, Record<string, unknown>>;
}

function sortedKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The bundle: every definition under `$defs` (internal refs) plus the method catalogue under `x-tether-methods`. */
export function generateJsonSchemaBundle(): Record<string, unknown> {
  const catalogue = buildCatalogue();
  const defs: Record<string, unknown> = {};
  for (const [id, schema] of Object.entries(toJsonSchemas(catalogue, (x) => `#/$defs/${x}`))) {
    const { $schema: _schema, $id: _id, ...rest } = schema;
    defs[id] = rest;
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'Tether app-server protocol',
    description: `Every message of the Tether protocol, version ${PROTOCOL_VERSION}. Generated from protocol/src; do not edit.`,
    'x-tether-protocol-version': PROTOCOL_VERSION,
    'x-tether-methods': catalogue.methods,
    $defs: sortedKeys(defs),
  };
}

/**
 * JSON Schema of every message, by file name: one `<Name>.json` per definition (refs point at sibling files) and
 * the self-contained bundle under JSON_SCHEMA_BUNDLE_FILE.
 */
export function generateJsonSchema(): Record<string, unknown> {
  const files: Record<string, unknown> = {};
  for (const [id, schema] of Object.entries(toJsonSchemas(buildCatalogue(), (x) => `${x}.json`)))
    files[`${id}.json`] = schema;
  files[JSON_SCHEMA_BUNDLE_FILE] = generateJsonSchemaBundle();
  return sortedKeys(files);
}

/** The TypeScript bundle: one type per definition and one map type per group of methods. Valid TypeScript. */
export function generateTypeScript(): string {
  const catalogue = buildCatalogue();
  const bundle = generateJsonSchemaBundle();
  return jsonSchemaBundleToTypeScript({
    header: [
      `Tether app-server protocol ${PROTOCOL_VERSION}: the type of every message.`,
      'Generated from the Zod schemas in protocol/src by `npx tether app-server generate-ts --out DIR`; do not edit.',
    ],
    defs: bundle.$defs as Record<string, unknown>,
    maps: catalogue.groups.map((g) => ({
      name: g.typeName,
      description: g.description,
      entries: g.methods.map((m) => ({
        key: m.method,
        params: m.params,
        paramsOptional: m.paramsOptional,
        result: m.result,
      })),
    })),
  });
}

/** The files `tether app-server generate-json-schema` writes: file name -> text (2-space JSON, final newline). */
export function renderJsonSchemaFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [name, schema] of Object.entries(generateJsonSchema()))
    files[name] = `${JSON.stringify(schema, null, 2)}\n`;
  return files;
}

/** The files `tether app-server generate-ts` writes: file name -> text. */
export function renderTypeScriptFiles(): Record<string, string> {
  return { [TYPESCRIPT_BUNDLE_FILE]: generateTypeScript() };
}
