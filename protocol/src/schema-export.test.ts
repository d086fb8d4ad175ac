import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  bridgeNotifications,
  bridgeRequests,
  clientNotifications,
  clientRequests,
  serverNotifications,
  serverRequests,
} from './methods';
import {
  exportedSchemaNames,
  generateJsonSchema,
  generateJsonSchemaBundle,
  generateTypeScript,
  JSON_SCHEMA_BUNDLE_FILE,
  type MethodCatalogueEntry,
  renderJsonSchemaFiles,
} from './schema-export';
import { seedExamples } from './seed-examples.fixtures';

/** Type-checks in-memory files (strict, ES2022 lib only) and returns the diagnostics as text. */
function typeCheck(files: Record<string, string>): string[] {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts'],
    types: [],
    noUnusedLocals: false,
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) =>
    files[name] !== undefined
      ? ts.createSourceFile(name, files[name]!, language)
      : getSourceFile(name, language, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => files[name] !== undefined || fileExists(name);
  const directoryExists = host.directoryExists?.bind(host);
  host.directoryExists = (dir) =>
    Object.keys(files).some((f) => f.startsWith(`${dir}/`)) || (directoryExists?.(dir) ?? false);
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => files[name] ?? readFile(name);
  const program = ts.createProgram(Object.keys(files), options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where =
      d.file && d.start !== undefined
        ? `${d.file.fileName}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}`
        : '';
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

function mapTypeOf(method: string): string {
  if (method in clientRequests) return 'ClientRequests';
  if (method in serverRequests) return 'ServerRequests';
  if (method in clientNotifications) return 'ClientNotifications';
  if (method in serverNotifications) return 'ServerNotifications';
  throw new Error(`no map for ${method}`);
}

describe('schema export', () => {
  it("names each row's messages after the exports the row uses, as XParams, XResult and XNotification", () => {
    const methods = generateJsonSchemaBundle()['x-tether-methods'] as MethodCatalogueEntry[];
    const exportName = exportedSchemaNames();
    const rows = { ...clientRequests, ...serverRequests, ...bridgeRequests };
    const notifications = { ...clientNotifications, ...serverNotifications, ...bridgeNotifications };
    for (const m of methods) {
      if (m.kind === 'request') {
        const row = rows[m.method as keyof typeof rows];
        expect([m.params, m.result], m.method).toEqual([exportName.get(row.params), exportName.get(row.result)]);
        expect(m.params, m.method).toMatch(/Params$/);
        expect(m.result, m.method).toMatch(/Result$/);
      } else {
        const schema = notifications[m.method as keyof typeof notifications];
        expect(m.params, m.method).toBe(exportName.get(schema));
        expect(m.params, m.method).toMatch(/Notification$/);
      }
    }
    expect(methods.find((m) => m.method === 'item/tool/call')).toMatchObject({
      params: 'ToolCallParams',
      result: 'ToolCallResult',
    });
    expect(methods.find((m) => m.method === 'item/agentMessage/delta')?.params).toBe('AgentMessageDeltaNotification');
  });

  it('makes an alias export a definition that refers to the schema it copies, with its own description', () => {
    const files = generateJsonSchema();
    expect(files['ThreadArchiveParams.json']).toMatchObject({
      $ref: 'ThreadIdParams.json',
      description: expect.stringContaining('thread/archive'),
    });
    expect(files['ApprovalRequestedNotification.json']).toMatchObject({ $ref: 'ApprovalRequestParams.json' });
    expect(generateTypeScript()).toContain('export type ThreadArchiveParams = ThreadIdParams;');
  });

  it('catalogues every method of the table with params (and result) definitions that exist', () => {
    const bundle = generateJsonSchemaBundle();
    const methods = bundle['x-tether-methods'] as MethodCatalogueEntry[];
    const defs = bundle.$defs as Record<string, unknown>;
    const expected = [
      ...Object.keys(clientRequests),
      ...Object.keys(clientNotifications),
      ...Object.keys(serverRequests),
      ...Object.keys(serverNotifications),
      ...Object.keys(bridgeRequests),
      ...Object.keys(bridgeNotifications),
    ];
    expect(methods.map((m) => m.method)).toEqual(expected);
    for (const m of methods) {
      expect(defs[m.params], m.params).toBeDefined();
      if (m.kind === 'request') expect(defs[m.result!], m.result).toBeDefined();
    }
    expect(methods.find((m) => m.method === 'turn/start')).toEqual({
      method: 'turn/start',
      kind: 'request',
      direction: 'clientToServer',
      params: 'TurnStartParams',
      paramsOptional: false,
      result: 'TurnStartResult',
    });
    expect(methods.find((m) => m.method === 'initialized')?.paramsOptional).toBe(true);
  });

  it('extracts shared objects as definitions and refers to them', () => {
    const files = generateJsonSchema();
    const result = files['ThreadStartResult.json'] as {
      properties: { thread: unknown };
      additionalProperties: unknown;
    };
    expect(result.properties.thread).toEqual({ $ref: 'Thread.json' });
    expect(result.additionalProperties).toEqual({});
    expect((files['Thread.json'] as { required: string[] }).required).toContain('createdAtMs');
    expect(files['RequestEnvelope.json']).toBeDefined();
  });

  it('has every $ref of every file point at a file or bundle definition that exists', () => {
    const files = generateJsonSchema();
    const bundleDefs = (files[JSON_SCHEMA_BUNDLE_FILE] as { $defs: Record<string, unknown> }).$defs;
    const refs = (value: unknown, found: string[] = []): string[] => {
      if (Array.isArray(value)) for (const v of value) refs(v, found);
      else if (typeof value === 'object' && value !== null) {
        for (const [k, v] of Object.entries(value)) {
          if (k === '$ref' && typeof v === 'string') found.push(v);
          else refs(v, found);
        }
      }
      return found;
    };
    for (const [name, schema] of Object.entries(files)) {
      for (const ref of refs(schema)) {
        if (name === JSON_SCHEMA_BUNDLE_FILE) expect(bundleDefs[ref.replace('#/$defs/', '')], ref).toBeDefined();
        else expect(files[ref], `${name} -> ${ref}`).toBeDefined();
      }
    }
  });

  it('is deterministic', () => {
    expect(renderJsonSchemaFiles()).toEqual(renderJsonSchemaFiles());
    expect(generateTypeScript()).toBe(generateTypeScript());
  });

  // Building a TypeScript program loads the standard library: seconds on a busy machine, hence the timeout.
  it('generates TypeScript that tsc accepts in strict mode, and that types every seed example', {
    timeout: 60_000,
  }, () => {
    const bundle = generateTypeScript();
    const checks = seedExamples.map((e, i) => {
      const value = JSON.parse(e.json) as { params?: unknown; result?: unknown };
      const part = e.kind === 'response' ? 'result' : 'params';
      const body = JSON.stringify(e.kind === 'response' ? value.result : (value.params ?? {}));
      return `export const seed${i}: NonNullable<${mapTypeOf(e.method)}[${JSON.stringify(e.method)}][${JSON.stringify(part)}]> = ${body};`;
    });
    const names = ['ClientRequests', 'ServerRequests', 'ClientNotifications', 'ServerNotifications'];
    const check = [
      `import type { ${names.join(', ')}, Thread, Item } from './tether-protocol';`,
      ...checks,
      // A wrong value must fail, or the check above proves nothing.
      "export const bad: Thread = { id: 'x' };",
      "export const badItem: Item = { id: 'i', type: 'nope', status: 'completed', createdAtMs: 1, content: { text: '' } };",
    ].join('\n');
    const diagnostics = typeCheck({ '/virtual/tether-protocol.ts': bundle, '/virtual/check.ts': check });
    expect(diagnostics.filter((d) => d.startsWith('/virtual/tether-protocol.ts'))).toEqual([]);
    const checkErrors = diagnostics.filter((d) => d.startsWith('/virtual/check.ts'));
    expect(checkErrors, checkErrors.join('\n')).toHaveLength(2);
    expect(checkErrors[0]).toContain(`:${checks.length + 2} `);
    expect(checkErrors[1]).toContain(`:${checks.length + 3} `);
  });
});
