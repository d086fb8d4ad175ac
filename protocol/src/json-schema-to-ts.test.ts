import { describe, expect, it } from 'vitest';
import { jsonSchemaBundleToTypeScript } from './json-schema-to-ts';

function render(defs: Record<string, unknown>): string {
  return jsonSchemaBundleToTypeScript({ header: ['test'], defs, maps: [] });
}

describe('jsonSchemaBundleToTypeScript', () => {
  it('renders objects with required, optional and quoted properties and an index signature when loose', () => {
    const ts = render({
      A: {
        type: 'object',
        properties: { id: { type: 'string' }, 'not-ident': { type: 'integer' }, n: { type: ['string', 'null'] } },
        required: ['id'],
        additionalProperties: {},
      },
    });
    expect(ts).toContain(
      'export type A = {\n  id: string;\n  "not-ident"?: number;\n  n?: string | null;\n  [key: string]: unknown;\n};',
    );
  });

  it('renders closed objects without index signature and records as index signatures', () => {
    expect(render({ A: { type: 'object', properties: {}, additionalProperties: false } })).toContain(
      'export type A = {};',
    );
    expect(render({ R: { type: 'object', additionalProperties: { type: 'number' } } })).toContain(
      'export type R = {\n  [key: string]: number;\n};',
    );
  });

  it('parenthesises unions inside arrays but not unions inside object members', () => {
    const ts = render({
      U: { type: 'array', items: { anyOf: [{ type: 'string' }, { $ref: '#/$defs/A' }] } },
      O: {
        anyOf: [
          { type: 'object', properties: { x: { enum: ['a', 'b'] } }, additionalProperties: false },
          { type: 'null' },
        ],
      },
      T: { type: 'array', items: { type: 'object', properties: { s: { const: 'x|y' } }, additionalProperties: false } },
    });
    expect(ts).toContain('export type U = (string | A)[];');
    expect(ts).toContain('export type O = {\n  x?: "a" | "b";\n} | null;');
    expect(ts).toContain('export type T = {\n  s?: "x|y";\n}[];');
  });

  it('renders tuples, intersections, never and unknown', () => {
    const ts = render({
      P: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] },
      I: { allOf: [{ $ref: '#/$defs/A' }, { $ref: '#/$defs/B' }] },
      N: { not: {} },
      X: {},
    });
    expect(ts).toContain('export type P = [string, number];');
    expect(ts).toContain('export type I = A & B;');
    expect(ts).toContain('export type N = never;');
    expect(ts).toContain('export type X = unknown;');
  });

  it('renders descriptions as doc comments and map types with optional params', () => {
    const ts = jsonSchemaBundleToTypeScript({
      header: ['h'],
      defs: { A: { description: 'An A. Not */ a comment end', type: 'string' } },
      maps: [
        {
          name: 'M',
          entries: [
            { key: 'a/b', params: 'A', paramsOptional: true, result: 'A' },
            { key: 'c', params: 'A' },
          ],
        },
      ],
    });
    expect(ts).toContain('/** An A. Not *\\/ a comment end */\nexport type A = string;');
    expect(ts).toContain('export type M = {\n  "a/b": { params?: A; result: A; };\n  "c": { params: A; };\n};');
  });

  it('documents properties, a described $ref and map types', () => {
    const ts = jsonSchemaBundleToTypeScript({
      header: ['h'],
      defs: {
        A: {
          type: 'object',
          properties: { n: { description: 'In ms.', type: 'integer' } },
          additionalProperties: false,
        },
        B: { description: 'A, for another method.', $ref: '#/$defs/A' },
      },
      maps: [{ name: 'M', description: 'By wire method.', entries: [{ key: 'a', params: 'A' }] }],
    });
    expect(ts).toContain('export type A = {\n  /** In ms. */\n  n?: number;\n};');
    expect(ts).toContain('/** A, for another method. */\nexport type B = A;');
    expect(ts).toContain('/** By wire method. */\nexport type M = {');
  });

  it('refuses what it cannot express instead of emitting wrong types', () => {
    expect(() => render({ A: { $ref: 'Other.json' } })).toThrow('Unsupported $ref "Other.json" at A');
    expect(() => render({ A: { type: 'bigint' } })).toThrow('Unsupported JSON Schema type "bigint" at A');
    expect(() => render({ 'bad-name': { type: 'string' } })).toThrow('not a TypeScript identifier');
  });
});
