import { PROTOCOL_VERSION } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import { reportedProtocolVersion } from './version';

describe('reportedProtocolVersion', () => {
  it('reports the protocol constant when the test variable is unset', () => {
    expect(reportedProtocolVersion({})).toBe(PROTOCOL_VERSION);
  });

  it('reports the version a test asks for through the environment', () => {
    expect(reportedProtocolVersion({ TETHER_TEST_PROTOCOL_VERSION: '2020-01-01' })).toBe('2020-01-01');
  });

  it('ignores a value that is not a date', () => {
    for (const raw of ['', '0', '2020-1-1', 'abc', '2020-01-01x'])
      expect(reportedProtocolVersion({ TETHER_TEST_PROTOCOL_VERSION: raw })).toBe(PROTOCOL_VERSION);
  });
});
