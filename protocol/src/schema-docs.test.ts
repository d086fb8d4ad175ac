/**
 * The schema's documentation and names, read from the source: every export of protocol/src/schema has a TSDoc, each
 * schema's description is that TSDoc word for word, and the generated schema carries it under the export's own name.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { exportedSchemaNames, generateJsonSchema, generateTypeScript, JSON_SCHEMA_BUNDLE_FILE } from './schema-export';
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

const src = dirname(fileURLToPath(import.meta.url));
const modules: Record<string, Record<string, unknown>> = {
  'approval.ts': approval,
  'bridge.ts': bridge,
  'bridge-config.ts': bridgeConfig,
  'bridge-files.ts': bridgeFiles,
  'common.ts': common,
  'envelope.ts': envelope,
  'item.ts': item,
  'session.ts': session,
  'thread.ts': thread,
  'turn.ts': turn,
};

/**
 * Exports of the source that are TypeScript only, so the generated schema has no definition of that name: helpers
 * over the wire types, not wire messages themselves.
 */
const typeScriptOnly = new Set(['ItemType', 'JsonRpcMessage', 'MessageKind', 'classifyMessage']);

/**
 * Map types of the generated TypeScript without a type of that name in methods.ts: methods.ts keeps the bridge rows
 * as the values `bridgeRequests` and `bridgeNotifications` and types them together with the app-server's rows as
 * `HostRequests` and `HostNotifications`.
 */
const generatedOnlyMaps = new Set(['BridgeRequests', 'BridgeNotifications']);

interface SourceExport {
  readonly name: string;
  readonly kind: 'value' | 'type';
  /** The TSDoc text with whitespace runs collapsed to one space; undefined when there is none. */
  readonly doc: string | undefined;
}

/** The exports of one TypeScript file with their TSDoc, in source order. */
function exportsOf(file: string): SourceExport[] {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const docOf = (node: ts.Node): string | undefined => {
    const texts = ts
      .getJSDocCommentsAndTags(node)
      .filter(ts.isJSDoc)
      .map((d) => ts.getTextOfJSDocComment(d.comment) ?? '');
    const text = texts.join(' ').replace(/\s+/g, ' ').trim();
    return text === '' ? undefined : text;
  };
  const found: SourceExport[] = [];
  for (const s of sf.statements) {
    if (!ts.canHaveModifiers(s) || !ts.getModifiers(s)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    if (ts.isVariableStatement(s)) {
      for (const d of s.declarationList.declarations)
        found.push({ name: d.name.getText(sf), kind: 'value', doc: docOf(d) });
    } else if (ts.isFunctionDeclaration(s) && s.name) {
      found.push({ name: s.name.text, kind: 'value', doc: docOf(s) });
    } else if ((ts.isTypeAliasDeclaration(s) || ts.isInterfaceDeclaration(s)) && s.name) {
      found.push({ name: s.name.text, kind: 'type', doc: docOf(s) });
    } else {
      throw new Error(
        `${file}: an export this test does not read (${ts.SyntaxKind[s.kind]}); teach exportsOf about it`,
      );
    }
  }
  return found;
}

const schemaFiles = readdirSync(join(src, 'schema')).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));

/** Every exported Zod schema of protocol/src/schema by name, read from the modules this test lists. */
function exportedSchemas(): Map<string, z.ZodType> {
  const schemas = new Map<string, z.ZodType>();
  for (const module of Object.values(modules))
    for (const [name, value] of Object.entries(module)) if (value instanceof z.ZodType) schemas.set(name, value);
  return schemas;
}

describe('schema documentation', () => {
  it('reads every schema module of protocol/src/schema', () => {
    expect(schemaFiles.sort()).toEqual(Object.keys(modules).sort());
  });

  it("gives every export of protocol/src/schema and methods.ts a TSDoc (a type shares its schema's)", () => {
    const missing: string[] = [];
    for (const file of [...schemaFiles.map((f) => join(src, 'schema', f)), join(src, 'methods.ts')]) {
      const exports = exportsOf(file);
      const documentedValues = new Set(exports.filter((e) => e.kind === 'value' && e.doc).map((e) => e.name));
      for (const e of exports) {
        if (e.doc === undefined && !(e.kind === 'type' && documentedValues.has(e.name))) {
          missing.push(`protocol/src/${relative(src, file)}: ${e.name}`);
        }
      }
    }
    expect(missing, `exports without a TSDoc:\n${missing.join('\n')}`).toEqual([]);
  });

  it('describes every exported schema with the words of its TSDoc', () => {
    const differing: string[] = [];
    for (const [file, module] of Object.entries(modules)) {
      for (const e of exportsOf(join(src, 'schema', file))) {
        const schema = module[e.name];
        if (e.kind !== 'value' || !(schema instanceof z.ZodType)) continue;
        if (schema.description !== e.doc) {
          differing.push(`${e.name}\n  TSDoc:       ${e.doc}\n  .describe(): ${schema.description}`);
        }
      }
    }
    expect(differing, `write the same sentence in both places:\n${differing.join('\n')}`).toEqual([]);
  });

  it('carries each description into its JSON Schema file and onto its generated TypeScript type', () => {
    const files = generateJsonSchema();
    const typescript = generateTypeScript();
    for (const [name, schema] of exportedSchemas()) {
      const file = files[`${name}.json`] as { description?: unknown } | undefined;
      expect(file?.description, `${name}.json`).toBe(schema.description);
      expect(typescript, name).toContain(`/** ${schema.description} */\nexport type ${name} =`);
    }
  });

  it('carries field descriptions into the JSON Schema and onto the generated properties', () => {
    const exited = generateJsonSchema()['BridgeBackendExitedNotification.json'] as {
      properties: Record<string, { description?: string }>;
    };
    const restart = bridge.BridgeBackendExitedNotification.shape.restartInMs.description;
    expect(restart).toMatch(/milliseconds/);
    expect(exited.properties.restartInMs?.description).toBe(restart);
    expect(generateTypeScript()).toContain(`  /** ${restart} */\n  restartInMs?: number;`);
  });
});

describe('generated names', () => {
  it('refuses an export that is another export under a second name, saying how to make it its own', () => {
    const A = z.looseObject({ id: z.string() }).describe('An A.');
    expect(() => exportedSchemaNames([{ A, B: A }])).toThrow("export const B = A.describe('...')");
    expect(exportedSchemaNames([{ A, B: A.describe('A B.'), notASchema: 1 }]).size).toBe(2);
  });

  it('has one JSON Schema definition per exported schema, named as the export, and no other', () => {
    const files = Object.keys(generateJsonSchema()).filter((f) => f !== JSON_SCHEMA_BUNDLE_FILE);
    expect(files.map((f) => f.replace(/\.json$/, '')).sort()).toEqual([...exportedSchemas().keys()].sort());
  });

  it('names every other export of protocol/src/schema in the generated TypeScript but the TypeScript-only ones', () => {
    const generated = new Set([...generateTypeScript().matchAll(/^export type (\w+) =/gm)].map((m) => m[1]!));
    const absent = schemaFiles
      .flatMap((f) => exportsOf(join(src, 'schema', f)))
      .filter((e) => !generated.has(e.name) && !typeScriptOnly.has(e.name))
      .map((e) => e.name);
    expect(absent, 'exports with no generated type of their name').toEqual([]);
    for (const name of typeScriptOnly) expect(generated.has(name), `${name} is listed as TypeScript-only`).toBe(false);
  });

  it('names the generated map types as methods.ts names the row types, except the documented bridge maps', () => {
    const defs = new Set(exportedSchemas().keys());
    const maps = [...generateTypeScript().matchAll(/^export type (\w+) =/gm)]
      .map((m) => m[1]!)
      .filter((n) => !defs.has(n));
    const methodTypes = new Set(
      exportsOf(join(src, 'methods.ts'))
        .filter((e) => e.kind === 'type')
        .map((e) => e.name),
    );
    expect(maps.filter((m) => !methodTypes.has(m) && !generatedOnlyMaps.has(m))).toEqual([]);
    for (const m of generatedOnlyMaps)
      expect(methodTypes.has(m), `${m} is now in methods.ts: drop the exception`).toBe(false);
    expect(maps).toEqual(expect.arrayContaining(['ClientRequests', 'ServerRequests', 'ServerNotifications']));
  });
});
