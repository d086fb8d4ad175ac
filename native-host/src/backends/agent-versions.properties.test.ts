/**
 * Properties of the agent version parser: any text an agent reports either parses or is reported unparsable (it never
 * throws), a parsed version formats back to itself, and the order is a total order consistent with that text.
 *
 * A failure prints its seed and path; pass them to the property (`{ seed, path, endOnFailure: true }`) to replay it.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { compareAgentVersions, formatAgentVersion, parseAgentVersion } from './agent-versions';

const part = fc.oneof(fc.nat({ max: 1000 }).map(String), fc.stringMatching(/^\d{1,30}$/));
const ident = fc.oneof(fc.nat({ max: 20 }).map(String), fc.stringMatching(/^[0-9A-Za-z-]{1,6}$/));
const version = fc
  .tuple(part, part, part, fc.array(ident, { maxLength: 3 }))
  .map(([a, b, c, pre]) => `${a}.${b}.${c}${pre.length > 0 ? `-${pre.join('.')}` : ''}`);

describe('agent version parser', () => {
  test.prop([fc.oneof(fc.string(), fc.string({ unit: 'binary' }), version)])(
    'either parses or reports the text unparsable, never throws',
    (text) => {
      const parsed = parseAgentVersion(text);
      if (parsed !== undefined) expect(parseAgentVersion(formatAgentVersion(parsed))).toEqual(parsed);
    },
  );

  test.prop([version])('parses every semver version and formats it back to an equal version', (text) => {
    const parsed = parseAgentVersion(text);
    expect(parsed).toBeDefined();
    expect(compareAgentVersions(parseAgentVersion(formatAgentVersion(parsed!))!, parsed!)).toBe(0);
  });

  test.prop([version, version, version])('orders versions totally and consistently', (a, b, c) => {
    const [x, y, z] = [a, b, c].map((t) => parseAgentVersion(t)!);
    expect(Math.sign(compareAgentVersions(x!, y!))).toBe(-Math.sign(compareAgentVersions(y!, x!)));
    if (compareAgentVersions(x!, y!) <= 0 && compareAgentVersions(y!, z!) <= 0)
      expect(compareAgentVersions(x!, z!)).toBeLessThanOrEqual(0);
  });
});
