/**
 * Compares the protocol version the host reports in `bridge/hello` with the range this extension works with, so a host
 * or extension left behind by an update is named as such instead of failing later on the first unknown method.
 */
import { PROTOCOL_VERSION, type BridgeHelloResult } from '@tether/protocol';
import type { VersionSkew } from '../../shared/records';

/** A range of protocol versions (dates, `YYYY-MM-DD`, which order as text). */
export interface ProtocolRange {
  readonly min: string;
  readonly max: string;
}

/**
 * The protocol versions of hosts this build works with: from the first that reported its version to its own. Raise
 * `min` when the extension starts needing something older hosts lack.
 */
export const SUPPORTED_PROTOCOL: ProtocolRange = { min: '2026-06-02', max: PROTOCOL_VERSION };

/** The host answered `bridge/hello` with a protocol outside SUPPORTED_PROTOCOL; `skew` says which side is older. */
export class VersionSkewError extends Error {
  override name = 'VersionSkewError';
  constructor(readonly skew: VersionSkew) {
    const { hostVersion, extensionVersion, hostProtocol, supported } = skew;
    const speaks = hostProtocol === undefined ? 'reports no protocol version' : `speaks protocol ${hostProtocol}`;
    const range = supported.min === supported.max ? supported.min : `${supported.min} to ${supported.max}`;
    super(
      skew.older === 'host'
        ? `The Tether host ${hostVersion} is older than this extension ${extensionVersion}: it ${speaks}; this extension needs ${range}.`
        : `This extension ${extensionVersion} is older than the Tether host ${hostVersion}: the host ${speaks}; this extension works with ${range}.`,
    );
  }
}

/** The skew between the host that said `hello` and this extension, or undefined when they work together. */
export function versionSkew(
  hello: BridgeHelloResult,
  extensionVersion: string,
  supported: ProtocolRange = SUPPORTED_PROTOCOL,
): VersionSkew | undefined {
  const hostProtocol = hello.protocolVersion;
  // Hosts from before version reporting send none: older than any range.
  if (hostProtocol !== undefined && hostProtocol >= supported.min && hostProtocol <= supported.max) return undefined;
  return {
    older: hostProtocol === undefined || hostProtocol < supported.min ? 'host' : 'extension',
    hostVersion: hello.hostVersion,
    ...(hostProtocol === undefined ? {} : { hostProtocol }),
    extensionVersion,
    supported: { min: supported.min, max: supported.max },
  };
}
