import { describe, expect, it } from 'vitest';
import { hostCommand } from './host-package';

describe('hostCommand', () => {
  it('runs the published package for users, which works without a checkout', () => {
    expect(hostCommand('install', {}, { extensionId: 'abc' })).toBe('npx tether-bridge install --extension-id abc');
    expect(hostCommand('doctor')).toBe('npx tether-bridge doctor');
  });

  it('pins the package version when asked', () => {
    expect(hostCommand('install', { version: '0.2.0' })).toBe('npx tether-bridge@0.2.0 install');
  });

  it("keeps the development flow's own command: the checkout's tether with --dev, never an extension id", () => {
    expect(hostCommand('install', { dev: true }, { extensionId: 'abc' })).toBe('npx tether install --dev');
    expect(hostCommand('doctor', { dev: true })).toBe('npx tether doctor');
  });

  it('uses the program the user runs when known, and quotes paths that need it', () => {
    expect(hostCommand('install', { program: 'tether' }, { browser: 'chromium', userDataDir: '/tmp/my profile' })).toBe(
      'tether install --browser chromium --user-data-dir "/tmp/my profile"',
    );
  });
});
