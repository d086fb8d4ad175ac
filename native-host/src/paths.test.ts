import { describe, expect, it } from 'vitest';
import { configDir, configFile, dataDir, logFile, stateDir } from './paths';

const linux = { platform: 'linux' as const, homedir: '/home/ada', env: {} };
const mac = { platform: 'darwin' as const, homedir: '/Users/ada', env: {} };
const win = {
  platform: 'win32' as const,
  homedir: 'C:\\Users\\ada',
  env: { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming', LOCALAPPDATA: 'C:\\Users\\ada\\AppData\\Local' },
};

describe('paths', () => {
  it('follows the XDG defaults on Linux', () => {
    expect(configDir(linux)).toBe('/home/ada/.config/tether');
    expect(dataDir(linux)).toBe('/home/ada/.local/share/tether');
    expect(stateDir(linux)).toBe('/home/ada/.local/state/tether');
    expect(logFile(linux)).toBe('/home/ada/.local/state/tether/host.log');
    expect(configFile(linux)).toBe('/home/ada/.config/tether/config.json');
  });

  it('honours absolute XDG variables and ignores relative ones', () => {
    const env = { XDG_CONFIG_HOME: '/cfg', XDG_DATA_HOME: '/data', XDG_STATE_HOME: 'relative/state' };
    expect(configDir({ ...linux, env })).toBe('/cfg/tether');
    expect(dataDir({ ...linux, env })).toBe('/data/tether');
    expect(stateDir({ ...linux, env })).toBe('/home/ada/.local/state/tether');
  });

  it('uses Library folders on macOS', () => {
    expect(configDir(mac)).toBe('/Users/ada/Library/Application Support/tether');
    expect(dataDir(mac)).toBe('/Users/ada/Library/Application Support/tether/data');
    expect(logFile(mac)).toBe('/Users/ada/Library/Logs/tether/host.log');
  });

  it('uses AppData on Windows with backslashes', () => {
    expect(configFile(win)).toBe('C:\\Users\\ada\\AppData\\Roaming\\tether\\config.json');
    expect(dataDir(win)).toBe('C:\\Users\\ada\\AppData\\Local\\tether\\data');
    expect(logFile(win)).toBe('C:\\Users\\ada\\AppData\\Local\\tether\\state\\host.log');
    expect(stateDir({ ...win, env: {} })).toBe('C:\\Users\\ada\\AppData\\Local\\tether\\state');
  });

  it('lets TETHER_CONFIG name the config file', () => {
    expect(configFile({ ...linux, env: { TETHER_CONFIG: '/tmp/t.json' } })).toBe('/tmp/t.json');
  });
});
