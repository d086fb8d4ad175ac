/** `schema/export`: the protocol's JSON Schema (from the Zod rows of the method table) and its TypeScript bundle. */
import { z } from 'zod';
import {
  PROTOCOL_VERSION,
  clientNotifications,
  clientRequests,
  serverNotifications,
  serverRequests,
  type SchemaExportResult,
} from '@tether/protocol';

let cached: SchemaExportResult | undefined;

/** The schema bundle (computed once per process). */
export function exportProtocolSchema(): SchemaExportResult {
  cached ??= build();
  return cached;
}

function build(): SchemaExportResult {
  const definitions: Record<string, unknown> = {};
  const put = (name: string, schema: z.ZodType): void => {
    definitions[name] = z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' });
  };
  for (const [method, row] of Object.entries(clientRequests)) {
    put(`${method}.params`, row.params);
    put(`${method}.result`, row.result);
  }
  for (const [method, row] of Object.entries(serverRequests)) {
    put(`${method}.params`, row.params);
    put(`${method}.result`, row.result);
  }
  for (const [method, schema] of Object.entries({ ...clientNotifications, ...serverNotifications })) put(`${method}.notification`, schema);
  const jsonSchema = { $schema: 'https://json-schema.org/draft/2020-12/schema', title: 'Tether app-server protocol', protocolVersion: PROTOCOL_VERSION, definitions };
  return { jsonSchema, typescript: typescriptOf(definitions) };
}

/** Renders each definition as a TypeScript type alias (objects, arrays, unions, enums, literals, primitives). */
function typescriptOf(definitions: Record<string, unknown>): string {
  const lines = [`// Tether app-server protocol ${PROTOCOL_VERSION}. Generated from the Zod schemas; do not edit.`];
  for (const [name, schema] of Object.entries(definitions)) {
    const alias = name
      .split(/[/.]/)
      .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
      .join('');
    lines.push(`export type ${alias} = ${tsType(schema, '')};`);
  }
  return lines.join('\n') + '\n';
}

function tsType(schema: unknown, indent: string): string {
  const s = (schema ?? {}) as Record<string, unknown>;
  if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf)) {
    return ((s.anyOf ?? s.oneOf) as unknown[]).map((x) => tsType(x, indent)).join(' | ');
  }
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  switch (s.type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return `Array<${tsType(s.items, indent)}>`;
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, unknown>;
      const required = new Set((s.required as string[] | undefined) ?? []);
      const inner = indent + '  ';
      const fields = Object.entries(props).map(
        ([key, value]) => `${inner}${JSON.stringify(key)}${required.has(key) ? '' : '?'}: ${tsType(value, inner)};`,
      );
      if (s.additionalProperties !== false) {
        const extra = s.additionalProperties && typeof s.additionalProperties === 'object' ? tsType(s.additionalProperties, inner) : 'unknown';
        fields.push(`${inner}[key: string]: ${extra === 'unknown' ? 'unknown' : `${extra} | unknown`};`);
      }
      return fields.length === 0 ? 'Record<string, never>' : `{\n${fields.join('\n')}\n${indent}}`;
    }
    default:
      return 'unknown';
  }
}
