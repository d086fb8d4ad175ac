import { describe, expect, it } from 'vitest';
import { parseInstallArgs, UsageError } from './args';

describe('install arguments', () => {
  it('parses every flag, in both --flag value and --flag=value forms', () => {
    expect(
      parseInstallArgs(
        'install',
        [
          '--browser',
          'chrome,firefox',
          '--browser=edge',
          '--extension-id',
          'a@b',
          '--extension-id=c@d',
          '--scope=system',
          '--dry-run',
        ],
        'linux',
      ),
    ).toEqual({
      browsers: ['chrome', 'firefox', 'edge'],
      extensionIds: ['a@b', 'c@d'],
      scope: 'system',
      dryRun: true,
      dev: false,
      help: false,
    });
    expect(parseInstallArgs('install', ['--dev', '--browser', 'chromium'], 'linux')).toMatchObject({
      dev: true,
      browsers: ['chromium'],
    });
  });

  it('expands --browser all and defaults to user scope with detection', () => {
    expect(parseInstallArgs('install', ['--browser', 'all'], 'darwin').browsers).toEqual([
      'chrome',
      'chromium',
      'edge',
      'brave',
      'vivaldi',
      'firefox',
    ]);
    expect(parseInstallArgs('install', [], 'linux')).toEqual({
      extensionIds: [],
      scope: 'user',
      dryRun: false,
      dev: false,
      help: false,
    });
  });

  it('rejects what cannot work, saying why', () => {
    const error = (
      command: 'install' | 'uninstall' | 'doctor',
      args: string[],
      platform: 'linux' | 'win32' = 'linux',
    ) => {
      try {
        parseInstallArgs(command, args, platform);
      } catch (e) {
        expect(e).toBeInstanceOf(UsageError);
        return (e as Error).message;
      }
      throw new Error('accepted');
    };
    expect(error('install', ['--browser', 'safari'])).toBe(
      'unknown browser "safari": use chrome, chromium, edge, brave, vivaldi, firefox or all',
    );
    expect(error('install', ['--scope', 'machine'])).toBe('--scope is "user" or "system", not "machine"');
    expect(error('install', ['--extension-id'])).toBe('--extension-id needs a value');
    expect(error('uninstall', ['--extension-id', 'a@b'])).toBe('unknown option --extension-id for tether uninstall');
    expect(error('doctor', ['--dry-run'])).toBe('unknown option --dry-run for tether doctor');
    expect(error('install', ['chrome'])).toBe('unexpected argument "chrome"');
    expect(error('install', ['--user-data-dir', 'p', '--browser', 'firefox'])).toMatch(/not Firefox$/);
    expect(error('install', ['--user-data-dir', 'p', '--scope', 'system'])).toMatch(
      /cannot be combined with --scope system/,
    );
    expect(error('install', ['--user-data-dir', 'C:\\p'], 'win32')).toMatch(/not supported on Windows/);
    expect(error('install', ['--dev', '--scope', 'system'])).toMatch(
      /^--dev allows the development extension, whose key is public.*cannot be combined with --scope system$/,
    );
    expect(error('install', ['--dev=yes'])).toBe('--dev takes no value');
    expect(error('doctor', ['--dev'])).toBe('unknown option --dev for tether doctor');
  });
});
