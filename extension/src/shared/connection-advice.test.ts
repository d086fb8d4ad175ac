import { describe, expect, it } from 'vitest';
import { adviceFor } from './connection-advice';

describe('adviceFor', () => {
  it('tells the user to install the host when the browser cannot find it', () => {
    expect(adviceFor('Specified native messaging host not found.')).toMatchObject({ command: 'npx tether install' });
  });

  it("tells the user to install the host when Firefox finds no such native application", () => {
    expect(adviceFor('No such native application dev.tether.bridge')).toMatchObject({ command: 'npx tether install' });
  });

  it('points at doctor when the host exits or sends garbage', () => {
    expect(adviceFor('Native host has exited.').command).toBe('npx tether doctor');
    expect(adviceFor('Error when communicating with the native messaging host.').command).toBe('npx tether doctor');
    const firefoxTooBig = 'Native application tried to send a message of 2000000 bytes, which exceeds the limit of 1048576 bytes.';
    expect(adviceFor(firefoxTooBig).command).toBe('npx tether doctor');
  });

  it('says the id is not allowed when access is forbidden', () => {
    expect(adviceFor('Access to the specified native messaging host is forbidden.').title).toMatch(/different extension id/);
  });

  it('keeps an unknown reason as the headline', () => {
    expect(adviceFor('The Tether host did not complete the handshake: timeout').title).toMatch(/handshake/);
  });
});
