/**
 * Who may start `tether host`, as a real process: the development extension (whose key is public) only when a
 * `tether install --dev` launcher passed --allow-dev-extension; the refusal goes to host.log with exit code 3.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEV_ORIGIN, type HostProcess, startHost } from './host-process';

const hosts: HostProcess[] = [];
function host(options: Parameters<typeof startHost>[0]): HostProcess {
  const h = startHost(options);
  hosts.push(h);
  return h;
}
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.dispose();
});

const FIREFOX_MANIFEST = '/home/u/.mozilla/native-messaging-hosts/dev.tether.bridge.json';

describe('tether host and the development extension', () => {
  it("refuses the development extension without the --dev launcher's flag: exit code 3 and the reason in host.log", async () => {
    for (const args of [[DEV_ORIGIN], [FIREFOX_MANIFEST, 'tether@tether.dev']]) {
      // A store id in the config changes nothing: the development ids are never allowed by the config.
      const h = host({ args, config: { allowedExtensionIds: ['abcdefghijklmnopabcdefghijklmnop'] } });
      expect((await h.exited).code).toBe(3);
      expect(h.frames).toHaveLength(0);
      const log = readFileSync(join(h.dir, 'state/tether/host.log'), 'utf8');
      expect(log).toContain('refused to start: extension ');
      expect(log).toContain(
        'is the development build, whose key is public (manifests/dev-key.json), and this host was not installed for development',
      );
      expect(h.stderr()).toContain('tether install --dev');
    }
  });

  it('serves the development extension after --allow-dev-extension and logs that the install was for development', async () => {
    const h = host({ args: ['--allow-dev-extension', FIREFOX_MANIFEST, 'tether@tether.dev'] });
    const hello = await h.request('bridge/hello', {});
    expect(hello.result.backend).toBe('embedded');
    const log = readFileSync(join(h.dir, 'state/tether/host.log'), 'utf8');
    expect(log).toContain('development extension allowed (installed with --dev)');
  });
});
