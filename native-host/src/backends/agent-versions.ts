/**
 * The check `initialize` makes against the oldest agent versions the adapters support (the `oldest` of each row of
 * presets.ts): an agent older than its row (or an ACP agent speaking another protocol version) is refused with an
 * error that says which side is older and the command that fixes it, instead of failing later on a method or field the
 * old agent lacks.
 */
import { hostCommand, RpcError } from '@tether/protocol';
import { BACKEND_PRESETS, type BackendPreset } from './presets';

/** A parsed version: numeric core and prerelease identifiers, compared as semver orders them. */
export interface AgentVersion {
  /** Major, minor and patch as digit strings without leading zeros (no size limit, so no precision loss). */
  readonly core: readonly [string, string, string];
  /** Prerelease identifiers (`1.2.3-alpha.1` -> ["alpha", "1"]); empty for a release. */
  readonly pre: readonly string[];
}

const VERSION =
  /^v?(\d{1,64})\.(\d{1,64})(?:\.(\d{1,64}))?(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z.-]*)?$/;

/** Parses `1.2.3`, `v1.2`, `1.2.3-alpha.1+build`; undefined for anything else (never throws). */
export function parseAgentVersion(text: string): AgentVersion | undefined {
  const match = VERSION.exec(text.trim());
  if (!match) return undefined;
  const digits = (s: string | undefined): string => (s ?? '0').replace(/^0+(?=\d)/, '');
  return {
    core: [digits(match[1]), digits(match[2]), digits(match[3])],
    pre: match[4] === undefined ? [] : match[4].split('.'),
  };
}

/** The version's text (`1.2.3` or `1.2.3-alpha.1`); parses back to an equal version. */
export function formatAgentVersion(version: AgentVersion): string {
  return version.core.join('.') + (version.pre.length > 0 ? `-${version.pre.join('.')}` : '');
}

function compareDigits(a: string, b: string): number {
  return a.length !== b.length ? Math.sign(a.length - b.length) : a < b ? -1 : a > b ? 1 : 0;
}

function compareIdentifier(a: string, b: string): number {
  const an = /^\d+$/.test(a);
  const bn = /^\d+$/.test(b);
  if (an && bn) return compareDigits(a.replace(/^0+(?=\d)/, ''), b.replace(/^0+(?=\d)/, ''));
  if (an !== bn) return an ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Negative when `a` is older than `b`, 0 when equal, positive when newer (semver precedence; build ignored). */
export function compareAgentVersions(a: AgentVersion, b: AgentVersion): number {
  for (let i = 0; i < 3; i++) {
    const order = compareDigits(a.core[i]!, b.core[i]!);
    if (order !== 0) return order;
  }
  // A release is newer than its prereleases.
  if (a.pre.length === 0 || b.pre.length === 0) return Math.sign(b.pre.length - a.pre.length);
  for (let i = 0; i < Math.min(a.pre.length, b.pre.length); i++) {
    const order = compareIdentifier(a.pre[i]!, b.pre[i]!);
    if (order !== 0) return order;
  }
  return Math.sign(a.pre.length - b.pre.length);
}

/**
 * Codex's version from its `initialize` answer's `userAgent`, `<client name>/<version> (<os>; <arch>) <terminal>
 * (<client>; <client version>)`, e.g. `tether/0.171.0 (Debian 12.0.0; x86_64) xterm (tether; 0.1.0)`: the text after
 * the last `/` of the first word. Undefined when there is none.
 */
export function codexVersionOf(userAgent: string | undefined): string | undefined {
  const first = userAgent?.trim().split(/\s/, 1)[0] ?? '';
  const slash = first.lastIndexOf('/');
  return slash >= 0 && slash < first.length - 1 ? first.slice(slash + 1) : undefined;
}

/** The row of an ACP agent that calls itself `name` (`agentInfo.name`), if it is one Tether knows. */
export function acpAgentRow(name: string | undefined): BackendPreset | undefined {
  const wanted = name?.toLowerCase();
  return BACKEND_PRESETS.find((row) => row.acpNames.some((n) => n.toLowerCase() === wanted));
}

/**
 * Checks the version an agent of `row` reported: undefined when it may run, else the -32050 error that ends
 * `initialize` (its `data.fix` is the update command, for a client that shows commands apart). An agent that reports no version is accepted (`agentInfo` is optional in ACP, and an unknown version is
 * no proof of an old one), and so is one whose version does not parse, with `log` saying so.
 */
export function checkAgentVersion(
  row: BackendPreset,
  reported: string | undefined,
  log: (line: string) => void,
): RpcError | undefined {
  if (reported === undefined) return undefined;
  const version = parseAgentVersion(reported);
  if (!version) {
    log(`${row.versionName} reported version ${JSON.stringify(reported)}, which does not parse; not checked`);
    return undefined;
  }
  const oldest = parseAgentVersion(row.oldest)!;
  if (compareAgentVersions(version, oldest) >= 0) return undefined;
  const fix = row.update;
  return RpcError.backendUnavailable(
    `${row.versionName} ${reported} is older than ${row.oldest}, the oldest this Tether supports. Update it: ${fix}`,
    { agent: row.id, agentVersion: reported, oldestSupported: row.oldest, olderSide: 'agent', fix },
  );
}

/**
 * Checks the ACP protocol version an agent answered `initialize` with (`spoken` is what the adapter sent): ACP says a
 * client that does not speak the agent's version closes the connection, so any other version is refused, naming the
 * older side. An answer without a version is accepted.
 */
export function checkAcpProtocol(
  answered: unknown,
  spoken: number,
  agent: { readonly name: string; readonly row: BackendPreset | undefined },
): RpcError | undefined {
  if (answered === undefined || answered === spoken) return undefined;
  const data = { agentProtocolVersion: answered, protocolVersion: spoken };
  const speaks = `${agent.name} speaks ACP protocol version ${JSON.stringify(answered)}; this Tether speaks version ${spoken}`;
  if (typeof answered === 'number' && answered > spoken) {
    const fix = hostCommand('install', { version: 'latest' });
    return RpcError.backendUnavailable(`${speaks}, so Tether is the older side. Update Tether: ${fix}`, {
      ...data,
      olderSide: 'tether',
      fix,
    });
  }
  // A version that is no number names no side: the agent is the one to change either way.
  const older = typeof answered === 'number' ? `, so ${agent.name} is the older side` : '';
  const fix = agent.row?.update;
  const advice = fix ? `Update it: ${fix}` : `Update it to a release that speaks ACP version ${spoken}`;
  return RpcError.backendUnavailable(`${speaks}${older}. ${advice}`, {
    ...data,
    ...(older ? { olderSide: 'agent' } : {}),
    ...(fix ? { fix } : {}),
  });
}
