import { describe, expect, it } from 'vitest';
import { checkCaller } from './caller';

const DEV = 'gkplngjhinednckbmppipofijkaplcpm';
const STORE = 'abcdefghijklmnopabcdefghijklmnop';
const FILE = '/home/u/.config/tether/config.json';
const FIREFOX_MANIFEST = '/home/u/.mozilla/native-messaging-hosts/dev.tether.bridge.json';
const none = { allowedExtensionIds: [] };
const store = { allowedExtensionIds: [STORE, 'tether@example.org'] };

describe('checkCaller', () => {
  it('accepts an allowed Chrome origin, with or without the Windows parent-window argument', () => {
    expect(checkCaller([`chrome-extension://${STORE}/`], store, FILE)).toMatchObject({
      ok: true,
      caller: { browser: 'chrome', extensionId: STORE },
      devAllowed: false,
    });
    expect(checkCaller([`chrome-extension://${STORE}/`, '--parent-window=0'], store, FILE).ok).toBe(true);
  });

  it('accepts Firefox arguments: the manifest path and an allowed add-on id', () => {
    const check = checkCaller([FIREFOX_MANIFEST, 'tether@example.org'], store, FILE);
    expect(check).toMatchObject({ ok: true, caller: { browser: 'firefox', extensionId: 'tether@example.org' } });
  });

  it("accepts the development ids only after the development launcher's --allow-dev-extension", () => {
    expect(checkCaller(['--allow-dev-extension', `chrome-extension://${DEV}/`], none, FILE)).toMatchObject({
      ok: true,
      caller: { browser: 'chrome', extensionId: DEV },
      devAllowed: true,
    });
    expect(
      checkCaller(['--allow-dev-extension', `chrome-extension://${DEV}/`, '--parent-window=0'], none, FILE).ok,
    ).toBe(true);
    expect(checkCaller(['--allow-dev-extension', FIREFOX_MANIFEST, 'tether@tether.dev'], none, FILE)).toMatchObject({
      ok: true,
      caller: { browser: 'firefox', extensionId: 'tether@tether.dev' },
    });
  });

  it('refuses the development ids without --allow-dev-extension, even beside a store id, and says why', () => {
    for (const args of [[`chrome-extension://${DEV}/`], [FIREFOX_MANIFEST, 'tether@tether.dev']]) {
      const check = checkCaller(args, store, FILE);
      expect(check.ok).toBe(false);
      if (!check.ok) {
        expect(check.reason).toContain('is the development build, whose key is public');
        expect(check.reason).toContain('tether install --dev');
      }
    }
  });

  it('accepts the ids the launcher names (install --extension-id alone), for Chrome and Firefox', () => {
    const launcher = [`--allow-extension=${STORE}`, '--allow-extension=tether@example.org'];
    expect(checkCaller([...launcher, `chrome-extension://${STORE}/`, '--parent-window=0'], none, FILE)).toMatchObject({
      ok: true,
      caller: { extensionId: STORE },
      devAllowed: false,
    });
    expect(checkCaller([...launcher, FIREFOX_MANIFEST, 'tether@example.org'], none, FILE).ok).toBe(true);
    expect(checkCaller(['--allow-dev-extension', ...launcher, `chrome-extension://${DEV}/`], none, FILE).ok).toBe(true);
  });

  it('never lets a development id in by name: only the development flag allows it', () => {
    expect(checkCaller([`--allow-extension=${DEV}`, `chrome-extension://${DEV}/`], none, FILE).ok).toBe(false);
  });

  it('refuses another extension and says how to allow it', () => {
    const check = checkCaller([`chrome-extension://${STORE}/`], none, FILE);
    expect(check.ok).toBe(false);
    if (!check.ok) {
      expect(check.reason).toContain(`${STORE} is not allowed`);
      expect(check.reason).toContain(FILE);
      expect(check.reason).toContain(`tether install --extension-id ${STORE}`);
    }
  });

  it('refuses a malformed origin and a missing caller', () => {
    expect(checkCaller(['chrome-extension://UPPER/'], store, FILE).ok).toBe(false);
    const missing = checkCaller([], store, FILE);
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.reason).toContain('no caller');
    expect(checkCaller(['--allow-dev-extension'], store, FILE).ok).toBe(false);
  });
});
