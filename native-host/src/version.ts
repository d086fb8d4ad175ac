import { PROTOCOL_VERSION } from '@tether/protocol/version';

declare const __TETHER_VERSION__: string | undefined;

/** The version of the `tether` command, injected by the bundler (tests run from source get `0.0.0-dev`). */
export const TETHER_VERSION: string = typeof __TETHER_VERSION__ === 'string' ? __TETHER_VERSION__ : '0.0.0-dev';

/** Lets a test start a host that claims an older (or newer) bridge protocol, to see the extension name the skew. */
export const TEST_PROTOCOL_VERSION_ENV = 'TETHER_TEST_PROTOCOL_VERSION';

/**
 * The protocol version `bridge/hello` reports: PROTOCOL_VERSION unless TETHER_TEST_PROTOCOL_VERSION holds a date
 * (YYYY-MM-DD). Only the environment the browser started the host with can set it; no message can.
 */
export function reportedProtocolVersion(env: Readonly<Record<string, string | undefined>>): string {
  const raw = env[TEST_PROTOCOL_VERSION_ENV];
  return raw !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(raw) ? raw : PROTOCOL_VERSION;
}
