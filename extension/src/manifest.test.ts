import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import devKey from '../../manifests/dev-key.json' with { type: 'json' };
import { buildManifest } from '../manifest.config.ts';

describe('buildManifest', () => {
  it('gives the Chrome build the development key, so its id is the one host manifests allow', () => {
    const m = buildManifest('chrome');
    const der = Buffer.from(String(m.key), 'base64');
    const id = [...createHash('sha256').update(der).digest('hex').slice(0, 32)]
      .map((c) => String.fromCharCode('a'.charCodeAt(0) + parseInt(c, 16)))
      .join('');
    expect(id).toBe(devKey.extensionId);
  });

  it('asks only for what the features need (no tabs or activeTab beside <all_urls>) and lets no web page talk to the extension', () => {
    const m = buildManifest('chrome');
    expect([...(m.permissions as string[])].sort()).toEqual([
      'contextMenus',
      'debugger',
      'nativeMessaging',
      'scripting',
      'sidePanel',
      'storage',
      'tabGroups',
      'webNavigation',
      'webRequest',
    ]);
    expect(buildManifest('firefox').permissions).toEqual([
      'nativeMessaging',
      'storage',
      'scripting',
      'contextMenus',
      'webRequest',
      'webNavigation',
    ]);
    expect(m.host_permissions).toEqual(['<all_urls>']);
    expect(m).not.toHaveProperty('externally_connectable');
    expect(m).not.toHaveProperty('content_scripts');
    expect(m.background).toEqual({ service_worker: 'src/background/index.ts', type: 'module' });
  });

  it('opens Tether from the toolbar button and from a shortcut Chrome does not use (Alt+Shift+T focuses its toolbar)', () => {
    const chrome = buildManifest('chrome');
    expect(chrome.action).not.toHaveProperty('default_popup');
    expect(chrome.commands).toEqual({
      _execute_action: { suggested_key: { default: 'Alt+Shift+K' }, description: 'Open Tether' },
    });
    const firefox = buildManifest('firefox');
    expect(firefox.action).not.toHaveProperty('default_popup');
    expect(firefox.commands).toEqual({
      _execute_sidebar_action: { suggested_key: { default: 'Alt+Shift+K' }, description: 'Open or close Tether' },
    });
  });

  it('builds Firefox with background scripts, a sidebar and the gecko id', () => {
    const m = buildManifest('firefox');
    expect(m.background).toEqual({ scripts: ['src/background/index.ts'], type: 'module' });
    expect(m.sidebar_action).toMatchObject({ default_panel: 'src/sidepanel/index.html' });
    expect(m.browser_specific_settings).toMatchObject({ gecko: { id: 'tether@tether.dev' } });
    expect(m).not.toHaveProperty('side_panel');
    expect(m.permissions).not.toContain('sidePanel');
  });

  it.each(['chrome', 'firefox'] as const)(
    'gives the %s build a policy for its pages that loads no remote script, image or connection',
    (browser) => {
      const csp = (buildManifest(browser).content_security_policy as { extension_pages: string }).extension_pages;
      const directives = new Map(
        csp.split(';').map((d) => {
          const [name = '', ...values] = d.trim().split(/\s+/);
          return [name, values];
        }),
      );
      expect(Object.fromEntries(directives)).toEqual({
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'object-src': ["'none'"],
        'img-src': ["'self'", 'data:'],
        'connect-src': ["'self'"],
        'base-uri': ["'none'"],
        'form-action': ["'none'"],
      });
    },
  );
});
