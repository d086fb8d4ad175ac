import type { BridgeHelloResult } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import { VersionSkewError, versionSkew } from './version-skew';

const hello = (protocolVersion?: string): BridgeHelloResult => ({
  hostVersion: '0.3.0',
  ...(protocolVersion === undefined ? {} : { protocolVersion }),
  backend: 'embedded',
  backends: [],
  limits: { maxOutboundFrameBytes: 1, maxInboundMessageBytes: 1, maxChunkedMessageBytes: 1 },
});

const RANGE = { min: '2026-01-01', max: '2026-03-01' };

describe('versionSkew', () => {
  it('finds none when the host speaks a protocol in the range', () => {
    expect(versionSkew(hello('2026-02-01'), '0.2.0', RANGE)).toBeUndefined();
  });

  it('names the host older when its protocol is below the range', () => {
    expect(versionSkew(hello('2025-12-31'), '0.2.0', RANGE)).toEqual({
      older: 'host',
      hostVersion: '0.3.0',
      hostProtocol: '2025-12-31',
      extensionVersion: '0.2.0',
      supported: RANGE,
    });
  });

  it('names a host that reports no protocol version older', () => {
    expect(versionSkew(hello(), '0.2.0', RANGE)?.older).toBe('host');
  });

  it('names the extension older when the host speaks a newer protocol', () => {
    const skew = versionSkew(hello('2026-04-01'), '0.2.0', RANGE);
    expect(skew?.older).toBe('extension');
    expect(new VersionSkewError(skew!).message).toBe(
      'This extension 0.2.0 is older than the Tether host 0.3.0: the host speaks protocol 2026-04-01; ' +
        'this extension works with 2026-01-01 to 2026-03-01.',
    );
  });
});
