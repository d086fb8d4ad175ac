import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { annotationsOf, clientToolsOf, mcpTools, toolCallResultOf } from './tools';

/** Client tools as an extension may declare them: one well formed, one with an extra annotation field, one broken. */
const schemaTools: Array<Record<string, unknown>> = [
  { name: 'page_read', description: 'Read', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
  {
    name: 'page_click',
    description: 'Click',
    inputSchema: { type: 'object' },
    annotations: { readOnlyHint: false, x: 1 },
  },
  { name: 'broken', inputSchema: { type: 'object' } },
];

describe('client tools as MCP tools', () => {
  it('keeps declared annotations, and marks the known read-only page tools when an extension declares none', () => {
    expect(
      annotationsOf({ name: 'page_click', description: '', inputSchema: {}, annotations: { readOnlyHint: true } }),
    ).toEqual({
      readOnlyHint: true,
    });
    expect(annotationsOf({ name: 'page_read', description: '', inputSchema: {} })).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
    });
    expect(annotationsOf({ name: 'page_click', description: '', inputSchema: {} })).toEqual({ readOnlyHint: false });
    expect(mcpTools([{ name: 'x', description: 'd', inputSchema: { type: 'string' } }])[0]!.inputSchema).toEqual({
      type: 'object',
      properties: {},
      additionalProperties: true,
    });
  });

  it('reads the tools of an initialize message, leaving out malformed ones', () => {
    expect(clientToolsOf({ params: { capabilities: { clientTools: schemaTools } } })).toEqual([
      schemaTools[0],
      { ...schemaTools[1], annotations: { readOnlyHint: false } },
    ]);
  });

  test.prop([fc.jsonValue()], { numRuns: 500 })(
    'reads any JSON as tools or none, and as a tool result, without throwing',
    (value) => {
      for (const tool of clientToolsOf({ params: { capabilities: { clientTools: value } } })) {
        expect(typeof tool.name).toBe('string');
        expect(typeof tool.description).toBe('string');
      }
      const result = toolCallResultOf(value);
      expect(typeof result.success).toBe('boolean');
      expect(Array.isArray(result.content)).toBe(true);
    },
  );
});
