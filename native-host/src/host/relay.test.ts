import { describe, expect, it } from 'vitest';
import { DAEMON_BY_DEFAULT, hostMode } from './relay';

const file = '/home/ada/.config/tether/config.json';

describe('hostMode', () => {
  it('follows TETHER_DAEMON=0 or 1 over the config file', () => {
    expect(hostMode({ file, daemonEnabled: true }, { TETHER_DAEMON: '0' })).toEqual({
      relay: false,
      why: 'TETHER_DAEMON=0',
    });
    expect(hostMode({ file, daemonEnabled: false }, { TETHER_DAEMON: '1' })).toEqual({
      relay: true,
      why: 'TETHER_DAEMON=1',
    });
  });

  it('follows the config file\'s "daemon": {"enabled": ...} when TETHER_DAEMON is unset or not 0 or 1, naming the file', () => {
    expect(hostMode({ file, daemonEnabled: false }, {})).toEqual({
      relay: false,
      why: `"daemon": {"enabled": false} in ${file}`,
    });
    expect(hostMode({ file, daemonEnabled: true }, { TETHER_DAEMON: 'yes' }).relay).toBe(true);
  });

  it('relays by default exactly when DAEMON_BY_DEFAULT says so', () => {
    expect(hostMode({ file }, {})).toEqual({ relay: DAEMON_BY_DEFAULT, why: 'the default' });
  });
});
