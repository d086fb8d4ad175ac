import { describe, expect, it } from 'vitest';
import { checkCaller } from './caller';

const DEV = 'gkplngjhinednckbmppipofijkaplcpm';
const allowed = [DEV, 'tether@tether.dev'];
const FILE = '/home/u/.config/tether/config.json';

describe('checkCaller', () => {
  it('accepts an allowed Chrome origin, with or without the Windows parent-window argument', () => {
    expect(checkCaller([`chrome-extension://${DEV}/`], allowed, FILE)).toMatchObject({ ok: true, caller: { browser: 'chrome', extensionId: DEV } });
    expect(checkCaller([`chrome-extension://${DEV}/`, '--parent-window=0'], allowed, FILE).ok).toBe(true);
  });

  it('accepts Firefox arguments: the manifest path and an allowed add-on id', () => {
    const check = checkCaller(['/home/u/.mozilla/native-messaging-hosts/dev.tether.bridge.json', 'tether@tether.dev'], allowed, FILE);
    expect(check).toMatchObject({ ok: true, caller: { browser: 'firefox', extensionId: 'tether@tether.dev' } });
  });

  it('refuses another extension and says how to allow it', () => {
    const check = checkCaller(['chrome-extension://abcdefghijklmnopabcdefghijklmnop/'], allowed, FILE);
    expect(check.ok).toBe(false);
    if (!check.ok) {
      expect(check.reason).toContain('abcdefghijklmnopabcdefghijklmnop is not allowed');
      expect(check.reason).toContain(FILE);
      expect(check.reason).toContain('tether install --extension-id abcdefghijklmnopabcdefghijklmnop');
    }
  });

  it('refuses a malformed origin and a missing caller', () => {
    expect(checkCaller(['chrome-extension://UPPER/'], allowed, FILE).ok).toBe(false);
    const none = checkCaller([], allowed, FILE);
    expect(none.ok).toBe(false);
    if (!none.ok) expect(none.reason).toContain('no caller');
  });
});
