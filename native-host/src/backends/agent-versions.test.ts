import { ErrorCode } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import {
  acpAgentRow,
  checkAcpProtocol,
  checkAgentVersion,
  codexVersionOf,
  compareAgentVersions,
  parseAgentVersion,
} from './agent-versions';
import { BACKEND_PRESETS, findPreset } from './presets';

const row = (id: string) => findPreset(id)!;
const order = (a: string, b: string) => compareAgentVersions(parseAgentVersion(a)!, parseAgentVersion(b)!);

describe('supported agent versions', () => {
  it('has an oldest version for every known agent, each parsing', () => {
    expect(BACKEND_PRESETS.map((r) => r.id).sort()).toEqual(['claude', 'codex', 'copilot', 'gemini']);
    for (const r of BACKEND_PRESETS) expect(parseAgentVersion(r.oldest), r.oldest).toBeDefined();
  });

  it('holds the versions the real-agent tests pin', () => {
    expect(Object.fromEntries(BACKEND_PRESETS.map((r) => [r.id, r.oldest]))).toEqual({
      codex: '0.171.0',
      copilot: '1.0.102',
      claude: '0.16.2',
      gemini: '0.61.0',
    });
  });

  it('finds an ACP agent by the name its initialize gives, and no other', () => {
    expect(acpAgentRow('Copilot')?.id).toBe('copilot');
    expect(acpAgentRow('copilot')?.id).toBe('copilot');
    expect(acpAgentRow('@zed-industries/claude-code-acp')?.id).toBe('claude');
    expect(acpAgentRow('gemini-cli')?.id).toBe('gemini');
    expect(acpAgentRow('scripted-acp-agent')).toBeUndefined();
    expect(acpAgentRow(undefined)).toBeUndefined();
  });
});

describe('agent version order', () => {
  it('orders numerically, not as text', () => {
    expect(order('0.99.0', '0.171.0')).toBeLessThan(0);
    expect(order('1.0.102', '1.0.99')).toBeGreaterThan(0);
    expect(order('10.0.0', '9.99.99')).toBeGreaterThan(0);
    expect(order('v1.2', '1.2.0')).toBe(0);
    expect(order('01.002.3', '1.2.3')).toBe(0);
  });

  it('puts a prerelease before its release, and orders prereleases as semver does', () => {
    expect(order('0.171.0-alpha.3', '0.171.0')).toBeLessThan(0);
    expect(order('0.171.0-alpha.10', '0.171.0-alpha.9')).toBeGreaterThan(0);
    expect(order('1.0.0-alpha', '1.0.0-alpha.1')).toBeLessThan(0);
    expect(order('1.0.0-1', '1.0.0-alpha')).toBeLessThan(0);
    expect(order('1.0.0+build.5', '1.0.0')).toBe(0);
  });

  it('compares versions longer than a double holds exactly', () => {
    expect(order('1.99999999999999999999.0', '1.99999999999999999998.0')).toBeGreaterThan(0);
  });

  it('reports text that is no version as unparsable', () => {
    for (const text of ['', 'unknown', '1', '1.x', '1.2.3.4', 'one.two', '1.2.3-', '1.2.3-a..b'])
      expect(parseAgentVersion(text), text).toBeUndefined();
  });
});

describe('codex version from userAgent', () => {
  it('reads the version after the originator, as recorded from codex 0.171.0', () => {
    expect(codexVersionOf('tether/0.171.0 (Debian 12.0.0; x86_64) xterm (tether; 0.1.0)')).toBe('0.171.0');
    expect(codexVersionOf('codex_cli_rs/0.150.0 (Mac OS 15.1.0; arm64) vscode/1.95 (x; 1)')).toBe('0.150.0');
  });

  it('finds none in a userAgent without one', () => {
    expect(codexVersionOf(undefined)).toBeUndefined();
    expect(codexVersionOf('')).toBeUndefined();
    expect(codexVersionOf('codex')).toBeUndefined();
    expect(codexVersionOf('codex/ (linux)')).toBeUndefined();
  });
});

describe('agent version check', () => {
  const lines: string[] = [];
  const log = (line: string) => lines.push(line);

  it('refuses an older agent with -32050, naming the older side and the update command', () => {
    const error = checkAgentVersion(row('codex'), '0.150.0', log);
    expect(error?.code).toBe(ErrorCode.BackendUnavailable);
    expect(error?.message).toBe(
      'Backend unavailable: Codex 0.150.0 is older than 0.171.0, the oldest this Tether supports. Update it: npm install -g @openai/codex@latest',
    );
    expect(error?.data).toMatchObject({
      agent: 'codex',
      agentVersion: '0.150.0',
      olderSide: 'agent',
      fix: 'npm install -g @openai/codex@latest',
    });
    expect(checkAgentVersion(row('copilot'), '1.0.50', log)?.message).toContain(
      'Update it: npm install -g @github/copilot@latest',
    );
    expect(checkAgentVersion(row('claude'), '0.16.1', log)?.message).toContain(
      'Update it: npm install -g @zed-industries/claude-code-acp@latest',
    );
    expect(checkAgentVersion(row('gemini'), '0.60.9', log)?.message).toContain(
      'Update it: npm install -g @google/gemini-cli@latest',
    );
  });

  it('accepts the oldest supported version and newer ones', () => {
    for (const r of BACKEND_PRESETS) expect(checkAgentVersion(r, r.oldest, log)).toBeUndefined();
    expect(checkAgentVersion(row('codex'), '0.172.0-alpha.1', log)).toBeUndefined();
    expect(checkAgentVersion(row('gemini'), '1.0.0', log)).toBeUndefined();
  });

  it('accepts an agent that reports no version, and one whose version does not parse with a log line', () => {
    lines.length = 0;
    expect(checkAgentVersion(row('copilot'), undefined, log)).toBeUndefined();
    expect(lines).toEqual([]);
    expect(checkAgentVersion(row('copilot'), 'nightly', log)).toBeUndefined();
    expect(lines).toEqual(['GitHub Copilot CLI reported version "nightly", which does not parse; not checked']);
  });
});

describe('ACP protocol version check', () => {
  const copilot = { name: 'Copilot', row: row('copilot') };

  it('accepts version 1 and an answer without a version', () => {
    expect(checkAcpProtocol(1, 1, copilot)).toBeUndefined();
    expect(checkAcpProtocol(undefined, 1, copilot)).toBeUndefined();
  });

  it('refuses an older protocol, telling the user to update the agent', () => {
    const error = checkAcpProtocol(0, 1, copilot);
    expect(error?.code).toBe(ErrorCode.BackendUnavailable);
    expect(error?.message).toBe(
      'Backend unavailable: Copilot speaks ACP protocol version 0; this Tether speaks version 1, so Copilot is the older side. Update it: npm install -g @github/copilot@latest',
    );
  });

  it('refuses a newer protocol, telling the user to update Tether', () => {
    const error = checkAcpProtocol(2, 1, { name: 'Some agent', row: undefined });
    expect(error?.message).toBe(
      'Backend unavailable: Some agent speaks ACP protocol version 2; this Tether speaks version 1, so Tether is the older side. Update Tether: npx tether-bridge@latest install',
    );
    expect(error?.data).toMatchObject({ olderSide: 'tether', fix: 'npx tether-bridge@latest install' });
  });

  it('refuses a version that is no number, without guessing which side is older', () => {
    const error = checkAcpProtocol('1.0', 1, { name: 'Some agent', row: undefined });
    expect(error?.message).toBe(
      'Backend unavailable: Some agent speaks ACP protocol version "1.0"; this Tether speaks version 1. Update it to a release that speaks ACP version 1',
    );
  });
});
