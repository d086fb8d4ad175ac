import { fc, test } from '@fast-check/vitest';
import { bridgeRequests } from '@tether/protocol';
import { RpcError } from '@tether/protocol/errors';
import { describe, expect, it } from 'vitest';
import {
  type BridgeHandlers,
  type BridgeParams,
  bridgeParams,
  callBridgeMethod,
  isBridgeMethod,
} from './bridge-methods';

/** Values of every JSON type, and of the right one, for a field that must be a string. */
const maybeString = fc.oneof(
  fc.string(),
  fc.constant(undefined),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 2 }),
);
const clientInfo = fc.oneof(
  fc.record(
    { name: maybeString, version: maybeString, title: maybeString, extra: fc.jsonValue() },
    { requiredKeys: [] },
  ),
  fc.jsonValue(),
);
const helloParams = fc.oneof(
  fc.record({ backend: maybeString, clientInfo, other: fc.jsonValue() }, { requiredKeys: [] }),
  fc.jsonValue(),
);

/** Undefined fields dropped, as they would be on the wire. */
const wire = (value: unknown): unknown => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

describe('bridge methods', () => {
  it('has a params parser for exactly the rows of bridgeRequests, and no inherited names', () => {
    expect(Object.keys(bridgeParams).sort()).toEqual(Object.keys(bridgeRequests).sort());
    for (const name of ['toString', '__proto__', 'constructor', 'bridge/nope'])
      expect(isBridgeMethod(name)).toBe(false);
  });

  test.prop([helloParams], { numRuns: 1000 })(
    'accepts the bridge/hello params its row schema accepts, with the same fields',
    (raw) => {
      const params = wire(raw);
      if (params === undefined || params === null) {
        expect(bridgeParams['bridge/hello'](params)).toEqual({});
        return;
      }
      const schema = bridgeRequests['bridge/hello'].params.safeParse(params);
      let parsed: BridgeParams<'bridge/hello'> | undefined;
      let error: unknown;
      try {
        parsed = bridgeParams['bridge/hello'](params);
      } catch (e) {
        error = e;
      }
      // The fields the host reads must be the same; other members pass through (Zod drops "__proto__" keys, which the host never reads).
      const fields = (p: typeof schema.data | undefined) => [
        p?.backend,
        p?.clientInfo?.name,
        p?.clientInfo?.version,
        p?.clientInfo?.title,
      ];
      if (schema.success) expect(fields(parsed)).toEqual(fields(schema.data));
      else {
        expect(error).toBeInstanceOf(RpcError);
        expect(error instanceof RpcError && error.code).toBe(-32602);
      }
    },
  );

  test.prop([fc.jsonValue()], { numRuns: 300 })(
    'accepts the bridge/backend/restart params its row schema accepts',
    (params) => {
      const accepted = bridgeRequests['bridge/backend/restart'].params.safeParse(params).success;
      let parsed = true;
      try {
        bridgeParams['bridge/backend/restart'](params);
      } catch (error) {
        parsed = false;
        expect(error instanceof RpcError && error.code).toBe(-32602);
      }
      expect(parsed).toBe(accepted || params === null);
    },
  );

  test.prop(
    [
      fc.oneof(
        fc.record({ threadId: maybeString, shared: fc.oneof(fc.boolean(), maybeString) }, { requiredKeys: [] }),
        fc.jsonValue(),
      ),
    ],
    { numRuns: 300 },
  )('accepts the bridge/mcp/share params its row schema accepts', (raw) => {
    const params = wire(raw);
    const schema = bridgeRequests['bridge/mcp/share'].params.safeParse(params);
    let parsed: BridgeParams<'bridge/mcp/share'> | undefined;
    try {
      parsed = bridgeParams['bridge/mcp/share'](params);
    } catch (error) {
      expect(error instanceof RpcError && error.code).toBe(-32602);
    }
    expect(parsed !== undefined).toBe(schema.success);
    if (schema.success) expect([parsed?.threadId, parsed?.shared]).toEqual([schema.data.threadId, schema.data.shared]);
  });

  test.prop(
    [
      fc.oneof(
        fc.record(
          {
            openai: fc.oneof(
              fc.record(
                { baseUrl: maybeString, apiKey: fc.oneof(maybeString, fc.constant(null)), model: maybeString },
                { requiredKeys: [] },
              ),
              fc.jsonValue(),
            ),
            preset: maybeString,
          },
          { requiredKeys: [] },
        ),
        fc.jsonValue(),
      ),
    ],
    { numRuns: 500 },
  )('accepts the bridge/config/write params its row schema accepts, with the same fields', (raw) => {
    const params = wire(raw);
    const schema = bridgeRequests['bridge/config/write'].params.safeParse(params);
    let parsed: BridgeParams<'bridge/config/write'> | undefined;
    try {
      parsed = bridgeParams['bridge/config/write'](params);
    } catch (error) {
      expect(error instanceof RpcError && error.code).toBe(-32602);
    }
    expect(parsed !== undefined).toBe(schema.success);
    const fields = (p: typeof schema.data | undefined) => [
      p?.preset,
      p?.openai?.baseUrl,
      p?.openai?.apiKey,
      p?.openai?.model,
    ];
    if (schema.success) expect(fields(parsed)).toEqual(fields(schema.data));
  });

  test.prop(
    [
      fc.oneof(
        fc.record(
          { baseUrl: maybeString, apiKey: maybeString, detectLocal: fc.oneof(fc.boolean(), maybeString) },
          {
            requiredKeys: [],
          },
        ),
        fc.jsonValue(),
      ),
    ],
    { numRuns: 500 },
  )('accepts the bridge/config/test and bridge/config/read params their row schemas accept', (raw) => {
    const params = wire(raw);
    for (const method of ['bridge/config/test', 'bridge/config/read'] as const) {
      const schema = bridgeRequests[method].params.safeParse(params);
      let ok = true;
      try {
        bridgeParams[method](params);
      } catch (error) {
        ok = false;
        expect(error instanceof RpcError && error.code).toBe(-32602);
      }
      expect(ok).toBe(schema.success || (method === 'bridge/config/read' && params === null));
    }
  });

  test.prop(
    [
      fc.oneof(
        fc.record(
          {
            paths: fc.oneof(
              fc.array(fc.oneof(fc.string({ maxLength: 8 }), fc.integer()), { maxLength: 22 }),
              fc.string(),
            ),
            bytes: fc.oneof(fc.boolean(), fc.string()),
          },
          { requiredKeys: [] },
        ),
        fc.jsonValue(),
      ),
    ],
    { numRuns: 500 },
  )('accepts the bridge/files/read params its row schema accepts', (raw) => {
    const params = wire(raw);
    const schema = bridgeRequests['bridge/files/read'].params.safeParse(params);
    let ok = true;
    try {
      bridgeParams['bridge/files/read'](params);
    } catch (error) {
      ok = false;
      expect(error instanceof RpcError && error.code).toBe(-32602);
    }
    expect(ok).toBe(schema.success);
  });

  it('names the field that does not fit', () => {
    expect(() => bridgeParams['bridge/hello']({ clientInfo: { name: 'x', version: '1', title: 3 } })).toThrow(
      'Invalid params for bridge/hello at clientInfo.title: expected a string',
    );
    expect(() => bridgeParams['bridge/backend/restart']([1])).toThrow(
      'Invalid params for bridge/backend/restart at params: expected an object',
    );
  });

  it('dispatches parsed params to the handler of the row', async () => {
    const seen: unknown[] = [];
    const handlers: BridgeHandlers = {
      'bridge/hello': async (params) => {
        seen.push(params);
        return {
          hostVersion: '1',
          backend: params.backend ?? 'a',
          backends: [],
          limits: { maxOutboundFrameBytes: 1, maxInboundMessageBytes: 1, maxChunkedMessageBytes: 1 },
        };
      },
      'bridge/backend/restart': async () => ({ backend: 'a' }),
      'bridge/mcp/share': async (params) => ({ shared: params.shared ? [params.threadId] : [], clients: [] }),
      'bridge/config/read': async () => ({ file: 'f', defaultBackend: 'embedded', openai: null, presets: [] }),
      'bridge/config/write': async () => ({ file: 'f', defaultBackend: 'embedded', openai: null, presets: [] }),
      'bridge/config/test': async () => ({ models: [] }),
      'bridge/files/read': async () => ({ files: [] }),
    };
    await expect(callBridgeMethod(handlers, 'bridge/hello', { backend: 'b', x: 1 })).resolves.toMatchObject({
      backend: 'b',
    });
    expect(seen).toEqual([{ backend: 'b', x: 1 }]);
    expect(() => callBridgeMethod(handlers, 'bridge/hello', { backend: 1 })).toThrow(RpcError);
  });
});
