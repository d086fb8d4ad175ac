import { describe, expect, it } from 'vitest';
import chromeTemplate from '../../../manifests/chrome-host.template.json';
import firefoxTemplate from '../../../manifests/firefox-host.template.json';
import { checkManifest, HOST_NAME, isValidHostName, renderManifest } from './manifest';

const good = {
  name: HOST_NAME,
  description: 'Tether',
  path: '/opt/tether-host',
  type: 'stdio',
  allowed_origins: ['chrome-extension://gkplngjhinednckbmppipofijkaplcpm/'],
};

describe('host manifest', () => {
  it('templates name the host and allow the development extension', () => {
    expect(chromeTemplate.name).toBe(HOST_NAME);
    expect(firefoxTemplate.name).toBe(HOST_NAME);
    expect(chromeTemplate.allowed_origins).toEqual(['chrome-extension://gkplngjhinednckbmppipofijkaplcpm/']);
    expect(firefoxTemplate.allowed_extensions).toEqual(['tether@tether.dev']);
  });

  it('renders the template with the launcher path and the allowed ids, keys in template order', () => {
    const text = renderManifest('chrome', '/x/tether-host', [
      'gkplngjhinednckbmppipofijkaplcpm',
      'abcdefghijklmnopabcdefghijklmnop',
    ]);
    expect(Object.keys(JSON.parse(text) as object)).toEqual(['name', 'description', 'path', 'type', 'allowed_origins']);
    expect(JSON.parse(text)).toMatchObject({
      path: '/x/tether-host',
      allowed_origins: [
        'chrome-extension://gkplngjhinednckbmppipofijkaplcpm/',
        'chrome-extension://abcdefghijklmnopabcdefghijklmnop/',
      ],
    });
    expect(text.endsWith('}\n')).toBe(true);
  });

  it('accepts a manifest a browser accepts, and reports its ids', () => {
    expect(checkManifest(JSON.stringify(good), `${HOST_NAME}.json`, 'chrome', 'linux')).toEqual({
      problems: [],
      hostPath: '/opt/tether-host',
      allowedIds: ['gkplngjhinednckbmppipofijkaplcpm'],
    });
  });

  it("applies Chromium's host name rule", () => {
    expect(['dev.tether.bridge', 'a_b.c1'].every(isValidHostName)).toBe(true);
    expect(['Dev.tether', 'dev-tether', '.dev', 'dev.', 'dev..tether', ''].some(isValidHostName)).toBe(false);
  });

  it('maps each broken rule to the failure the browser reports', () => {
    const kinds = (manifest: object, file = `${HOST_NAME}.json`, platform: 'linux' | 'win32' = 'linux') =>
      checkManifest(JSON.stringify(manifest), file, 'chrome', platform).problems.map((p) => p.kind);
    expect(kinds({ ...good, name: 'Dev.Tether' })).toEqual(['invalidName']);
    expect(kinds({ ...good, name: 'other.host' })).toEqual(['notFound']);
    expect(kinds(good, 'other.json')).toEqual(['notFound']);
    expect(kinds(good, 'other.json', 'win32')).toEqual([]);
    expect(kinds({ ...good, path: 'tether-host' })).toEqual(['notFound']);
    expect(kinds({ ...good, path: 'tether-host' }, `${HOST_NAME}.json`, 'win32')).toEqual([]);
    expect(kinds({ ...good, type: 'socket' })).toEqual(['notFound']);
    expect(kinds({ ...good, allowed_origins: 'chrome-extension://gkplngjhinednckbmppipofijkaplcpm/' })).toEqual([
      'notFound',
    ]);
    expect(checkManifest('{', `${HOST_NAME}.json`, 'chrome', 'linux').problems[0]?.message).toMatch(
      /^the manifest is not valid JSON/,
    );
  });

  it("reads Firefox's allowed_extensions", () => {
    const { problems, allowedIds } = checkManifest(
      JSON.stringify({ ...good, allowed_origins: undefined, allowed_extensions: ['tether@tether.dev'] }),
      `${HOST_NAME}.json`,
      'firefox',
      'darwin',
    );
    expect(problems).toEqual([]);
    expect(allowedIds).toEqual(['tether@tether.dev']);
  });
});
