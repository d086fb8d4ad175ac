import { describe, expect, it } from 'vitest';
import { allowedIds, DEV_EXTENSION_ID, DEV_FIREFOX_ADDON_ID, InvalidExtensionIdError, parseExtensionId } from './ids';

describe('extension ids', () => {
  it('comes with the development ids from manifests/dev-key.json', () => {
    expect(DEV_EXTENSION_ID).toBe('gkplngjhinednckbmppipofijkaplcpm');
    expect(DEV_FIREFOX_ADDON_ID).toBe('tether@tether.dev');
  });

  it('classifies Chrome ids, pasted origins and both Firefox forms', () => {
    expect(parseExtensionId('abcdefghijklmnopabcdefghijklmnop')).toEqual({
      family: 'chrome',
      id: 'abcdefghijklmnopabcdefghijklmnop',
    });
    expect(parseExtensionId('chrome-extension://abcdefghijklmnopabcdefghijklmnop/')).toEqual({
      family: 'chrome',
      id: 'abcdefghijklmnopabcdefghijklmnop',
    });
    expect(parseExtensionId('me@example.org')).toEqual({ family: 'firefox', id: 'me@example.org' });
    expect(parseExtensionId('{12345678-90ab-cdef-1234-567890abcdef}')).toEqual({
      family: 'firefox',
      id: '{12345678-90ab-cdef-1234-567890abcdef}',
    });
  });

  it('says exactly what is wrong with an almost-valid id', () => {
    const message = (value: string) => {
      try {
        parseExtensionId(value);
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidExtensionIdError);
        return (error as Error).message;
      }
      throw new Error(`${value} was accepted`);
    };
    expect(message('abcdefghijklmnopabcdefghijklmno')).toContain('a Chrome extension id has 32 letters, this has 31');
    expect(message('ABCDEFGHIJKLMNOPABCDEFGHIJKLMNOP')).toContain('Chrome extension ids are lowercase');
    expect(message('abcdefghijklmnopabcdefghijklmnoz')).toContain('only the letters a to p');
    expect(message('{1234}')).toContain('{8-4-4-4-12 hex digits}');
    expect(message('a@b@c')).toContain('around one "@"');
    expect(message('hello')).toContain('e.g. abcdefghijklmnopabcdefghijklmnop');
  });

  it('puts the development ids first only for a --dev install, and drops duplicates', () => {
    expect(allowedIds(['abcdefghijklmnopabcdefghijklmnop', 'me@example.org', 'me@example.org'], true)).toEqual({
      chrome: [DEV_EXTENSION_ID, 'abcdefghijklmnopabcdefghijklmnop'],
      firefox: [DEV_FIREFOX_ADDON_ID, 'me@example.org'],
    });
    expect(allowedIds(['abcdefghijklmnopabcdefghijklmnop', 'me@example.org'], false)).toEqual({
      chrome: ['abcdefghijklmnopabcdefghijklmnop'],
      firefox: ['me@example.org'],
    });
  });
});
