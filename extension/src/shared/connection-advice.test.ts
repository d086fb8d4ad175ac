import { describe, expect, it } from 'vitest';
import { adviceFor, agentFixAdvice, daemonUnavailableNote, daemonUpdateNote, skewAdvice } from './connection-advice';
import { doctorCommandFor, installCommandFor, skewCommandFor } from './install-command';
import type { VersionSkew } from './records';

const DEV_ID = 'gkplngjhinednckbmppipofijkaplcpm';
const STORE_ID = 'abcdefghijklmnopabcdefghijklmnop';
const INSTALL = { install: 'npx tether install --dev', doctor: 'npx tether doctor' };

describe('adviceFor', () => {
  it('tells the user to install the host when the browser cannot find it', () => {
    expect(adviceFor('Specified native messaging host not found.', INSTALL)).toMatchObject({
      command: INSTALL.install,
    });
  });

  it('tells the user to install the host when Firefox finds no such native application', () => {
    expect(adviceFor('No such native application dev.tether.bridge', INSTALL)).toMatchObject({
      command: INSTALL.install,
    });
  });

  it('points at doctor when the host exits or sends garbage', () => {
    expect(adviceFor('Native host has exited.', INSTALL).command).toBe('npx tether doctor');
    expect(adviceFor('Error when communicating with the native messaging host.', INSTALL).command).toBe(
      'npx tether doctor',
    );
    const firefoxTooBig =
      'Native application tried to send a message of 2000000 bytes, which exceeds the limit of 1048576 bytes.';
    expect(adviceFor(firefoxTooBig, INSTALL).command).toBe('npx tether doctor');
  });

  it('says a host that was connected stopped and restarts by itself, without blaming Node or the path', () => {
    const advice = adviceFor('Native host has exited.', INSTALL, 42_000);
    expect(advice.title).toBe('The Tether host stopped.');
    expect(advice.action).toContain('running for 42 s');
    expect(advice.action).toMatch(/again by itself/);
    expect(advice.action).toMatch(/host log/);
    expect(`${advice.title} ${advice.action}`).not.toMatch(/node|path/i);
    expect(advice.command).toBe('npx tether doctor');
  });

  it('suspects Node or the config only when the host exited before it ever connected', () => {
    expect(adviceFor('Native host has exited.', INSTALL).action).toMatch(/Node\.js is missing/);
  });

  it('still says a message was unreadable when a connected host sent one', () => {
    expect(adviceFor('Error when communicating with the native messaging host.', INSTALL, 5_000).title).toMatch(
      /could not read/,
    );
  });

  it('says the id is not allowed when access is forbidden', () => {
    expect(adviceFor('Access to the specified native messaging host is forbidden.', INSTALL).title).toMatch(
      /different extension id/,
    );
  });

  it("prints this extension's doctor command, the package's for a store build", () => {
    const store = { install: installCommandFor(STORE_ID), doctor: doctorCommandFor(STORE_ID) };
    expect(adviceFor('Native host has exited.', store).command).toBe('npx tether-bridge doctor');
    expect(adviceFor('Specified native messaging host not found.', store).command).toBe(
      `npx tether-bridge install --extension-id ${STORE_ID}`,
    );
  });

  it('keeps an unknown reason as the headline', () => {
    expect(adviceFor('The Tether host did not complete the handshake: timeout', INSTALL).title).toMatch(/handshake/);
  });
});

describe('installCommandFor', () => {
  it('tells the development build (Chrome id or Firefox add-on id) to install with --dev, which alone allows its public key', () => {
    expect(installCommandFor('gkplngjhinednckbmppipofijkaplcpm')).toBe('npx tether install --dev');
    expect(installCommandFor('tether@tether.dev')).toBe('npx tether install --dev');
  });

  it('names any other build by its id and installs it from the published package, which needs no checkout', () => {
    expect(installCommandFor(STORE_ID)).toBe(`npx tether-bridge install --extension-id ${STORE_ID}`);
  });
});

describe('skewAdvice', () => {
  const skew = (older: VersionSkew['older']): VersionSkew => ({
    older,
    hostVersion: older === 'host' ? '0.1.0' : '0.3.0',
    hostProtocol: older === 'host' ? '2026-01-01' : '2026-09-01',
    extensionVersion: '0.2.0',
    supported: { min: '2026-06-02', max: '2026-06-02' },
  });

  it('tells a store build whose host is older to install the host release matching the extension', () => {
    const advice = skewAdvice(skew('host'), skewCommandFor(STORE_ID, skew('host')));
    expect(advice.title).toBe('The Tether host (0.1.0) is older than this extension (0.2.0).');
    expect(advice.command).toBe('npx tether-bridge@0.2.0 install');
  });

  it('tells a store build that is older than its host to update, or to install the matching host', () => {
    const advice = skewAdvice(skew('extension'), skewCommandFor(STORE_ID, skew('extension')));
    expect(advice.title).toBe('This extension (0.2.0) is older than the Tether host (0.3.0).');
    expect(advice.action).toMatch(/Update the extension to 0\.3\.0/);
    expect(advice.command).toBe('npx tether-bridge@0.2.0 install');
  });

  it('leaves the versions out when both sides carry the same one (a development checkout)', () => {
    const same = { ...skew('host'), hostVersion: '0.2.0' };
    expect(skewAdvice(same, 'npx tether install --dev').title).toBe('The Tether host is older than this extension.');
  });

  it("keeps the development checkout's own commands", () => {
    expect(skewCommandFor(DEV_ID, skew('host'))).toBe('npx tether install --dev');
    expect(skewCommandFor(DEV_ID, skew('extension'))).toBe('npm run build');
  });
});

describe('agentFixAdvice', () => {
  it('names the side to update and gives its command as the one to run', () => {
    expect(agentFixAdvice({ olderSide: 'agent', command: 'npm install -g @openai/codex@latest' })).toEqual({
      title: 'The agent behind Tether is older than this Tether supports.',
      action: 'Update it by running this in a terminal, then press Retry.',
      command: 'npm install -g @openai/codex@latest',
    });
    expect(agentFixAdvice({ olderSide: 'tether', command: 'npx tether-bridge@latest install' }).title).toBe(
      'This Tether is older than the agent behind it.',
    );
  });
});

describe('daemonUpdateNote', () => {
  it("says nothing when the daemon runs the host's version, or when no daemon serves", () => {
    expect(daemonUpdateNote('0.2.0', '0.2.0')).toBeUndefined();
    expect(daemonUpdateNote('0.2.0', undefined)).toBeUndefined();
    expect(daemonUpdateNote(undefined, '0.1.0')).toBeUndefined();
  });

  it('says an update is pending, naming both versions, when the daemon is older than the host', () => {
    expect(daemonUpdateNote('0.2.0', '0.1.0')).toBe(
      'Tether was updated to 0.2.0. Version 0.1.0 keeps the agent running so no turn is cut short; 0.2.0 starts when the agent is idle.',
    );
    // By number, not by text: 0.10.0 is newer than 0.9.2.
    expect(daemonUpdateNote('0.10.0', '0.9.2')).toMatch(/^Tether was updated to 0\.10\.0\./);
    expect(daemonUpdateNote('1.0.0', '1.0.0-rc.1')).toMatch(/^Tether was updated to 1\.0\.0\./);
  });

  it('tells the user to update the host when the daemon is the newer one', () => {
    expect(daemonUpdateNote('0.9.2', '0.10.0')).toBe(
      "The agent runs Tether 0.10.0, newer than this browser's Tether host (0.9.2): install Tether again to update the host.",
    );
  });
});

describe('daemonUnavailableNote', () => {
  it("says turns stop with the browser, with the host's reason, when the daemon could not run", () => {
    expect(daemonUnavailableNote('cannot listen on /run/user/1000/tether/daemon.sock: EACCES.')).toBe(
      'Turns stop when the browser closes: the Tether daemon could not run (cannot listen on ' +
        "/run/user/1000/tether/daemon.sock: EACCES), so the browser's host runs the agent itself. tether doctor says more.",
    );
  });
});
