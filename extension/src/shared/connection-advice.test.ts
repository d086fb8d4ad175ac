import { describe, expect, it } from 'vitest';
import { adviceFor } from './connection-advice';
import { installCommandFor } from './install-command';

const INSTALL = 'npx tether install --dev';

describe('adviceFor', () => {
  it('tells the user to install the host when the browser cannot find it', () => {
    expect(adviceFor('Specified native messaging host not found.', INSTALL)).toMatchObject({ command: INSTALL });
  });

  it('tells the user to install the host when Firefox finds no such native application', () => {
    expect(adviceFor('No such native application dev.tether.bridge', INSTALL)).toMatchObject({ command: INSTALL });
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

  it('keeps an unknown reason as the headline', () => {
    expect(adviceFor('The Tether host did not complete the handshake: timeout', INSTALL).title).toMatch(/handshake/);
  });
});

describe('installCommandFor', () => {
  it('tells the development build (Chrome id or Firefox add-on id) to install with --dev, which alone allows its public key', () => {
    expect(installCommandFor('gkplngjhinednckbmppipofijkaplcpm')).toBe('npx tether install --dev');
    expect(installCommandFor('tether@tether.dev')).toBe('npx tether install --dev');
  });

  it('names any other build by its id, since the host allows only the ids it was installed for', () => {
    expect(installCommandFor('abcdefghijklmnopabcdefghijklmnop')).toBe(
      'npx tether install --extension-id abcdefghijklmnopabcdefghijklmnop',
    );
  });
});
