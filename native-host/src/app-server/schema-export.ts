/** `schema/export`: the protocol's JSON Schema bundle and TypeScript bundle, as `tether app-server generate-*` writes them. */
import { generateJsonSchemaBundle, generateTypeScript, type SchemaExportResult } from '@tether/protocol';

let cached: SchemaExportResult | undefined;

/** The schema bundles (generated once per process: they depend only on the code). */
export function exportProtocolSchema(): SchemaExportResult {
  cached ??= { jsonSchema: generateJsonSchemaBundle(), typescript: generateTypeScript() };
  return cached;
}
