import { describe, expect, it } from 'vitest';
import { install } from './install';
import { utf8 } from './system';
import {
  DARWIN,
  DEV_ORIGIN,
  darwinMachine,
  goodHost,
  IN_PROCESS,
  installedLinux,
  installOptions,
  LINUX,
  LINUX_LAUNCHER,
  linuxMachine,
  OWN_IDS,
  OWN_ORIGIN,
  runDoctor,
  WIN,
  windowsMachine,
} from './test-machines';

const CHROMIUM = '/home/ada/.config/chromium/NativeMessagingHosts/dev.tether.bridge.json';

describe('tether doctor on Linux', () => {
  it('passes after install for every browser found', async () => {
    const config = JSON.stringify({ allowedExtensionIds: [OWN_IDS.chrome, OWN_IDS.firefox] });
    const sys = linuxMachine({ spawn: () => goodHost(), files: { '/home/ada/.config/tether/config.json': config } });
    await install(sys, installOptions(LINUX.host, []));
    const { code, lines, text } = await runDoctor(sys);

    expect(code).toBe(0);
    expect(sys.spawns.length).toBe(3);
    expect(lines).toContain(`  ✓ manifest ${CHROMIUM} (valid JSON, name matches the file)`);
    expect(lines).toContain(`  ✓ allowed_origins allows ${OWN_IDS.chrome}`);
    expect(lines).toContain('  · development extension allowed: no');
    expect(text).toMatch(
      /✓ started as Chromium would \(\/home\/ada\/\.local\/share\/tether\/bin\/tether-host chrome-extension:\/\/abcdefghijklmnopabcdefghijklmnop\/\): initialize answered in \d+ ms from tether-app-server 0\.1\.0/,
    );
    expect(text).toMatch(/✓ the host exited \d+ ms after stdin closed/);
    expect(lines).toContain(`  ✓ Node ${LINUX.node} v20.20.2`);
    expect(lines).toContain('  ✓ host script /home/ada/.local/share/tether/host/0.1.0/tether.mjs');
    expect(lines).toContain('  · host log: /home/ada/.local/state/tether/host.log (not written yet)');
    expect(lines.at(-1)).toBe('All checks passed.');
  });

  it('fails for a browser found on the machine that has no manifest', async () => {
    const sys = await installedLinux();
    const { code, lines } = await runDoctor(sys);
    expect(code).toBe(1);
    expect(lines).toContain('Google Chrome');
    expect(lines).toContain('      fix: tether install --browser chrome');
  });

  it('says whether the development extension is allowed, and warns when a --dev install allows it', async () => {
    const sys = linuxMachine({ spawn: () => goodHost(), cwd: '/tmp' });
    await install(sys, installOptions(LINUX.host, [], { dev: true, extensionIds: [], userDataDir: 'profile' }));
    const { code, lines } = await runDoctor(sys, { userDataDir: 'profile' });

    const devLauncher = '/home/ada/.local/share/tether/bin/tether-host-dev';
    expect(lines).toContain(
      '  ! development extension allowed: yes (installed with --dev): gkplngjhinednckbmppipofijkaplcpm has a public key ' +
        '(manifests/dev-key.json), so any extension loaded with it can use the host and ask for command approvals',
    );
    expect(lines).toContain(
      `  · passes --allow-dev-extension: the host allows the development extension (installed with --dev)`,
    );
    // The probe poses as the extension the manifest allows, through the development launcher.
    expect(sys.spawns).toEqual([
      { file: devLauncher, args: [DEV_ORIGIN], cwd: '/home/ada/.local/share/tether/bin', env: IN_PROCESS },
    ]);
    expect(code).toBe(0);
    expect(lines.at(-1)).toBe('All checks passed (1 warning).');
  });

  it("reports a missing manifest with the browser's own error text and the install command", async () => {
    const sys = linuxMachine();
    const { code, lines } = await runDoctor(sys, { browsers: ['chromium'] });

    expect(code).toBe(1);
    expect(lines).toContain(
      `  ✗ no manifest: looked at ${CHROMIUM}, /etc/chromium/native-messaging-hosts/dev.tether.bridge.json`,
    );
    expect(lines).toContain('      the browser says: "Specified native messaging host not found."');
    expect(lines).toContain('      fix: tether install --browser chromium');
    expect(lines.at(-1)).toBe('1 problem found.');
  });

  it("uses Firefox's wording for Firefox", async () => {
    const { lines } = await runDoctor(linuxMachine(), { browsers: ['firefox'] });
    expect(lines).toContain('      the browser says: "No such native application dev.tether.bridge"');
  });

  it('explains each broken manifest rule with the error the browser shows for it', async () => {
    const sys = await installedLinux();
    const bad = {
      name: 'dev.tether.bridge',
      description: '',
      path: 'bin/tether-host',
      type: 'stdio',
      allowed_origins: ['chrome-extension://gkplngjhinednckbmppipofijkaplcpm', 'chrome-extension://*/'],
    };
    await sys.fs.writeFile(CHROMIUM, utf8(JSON.stringify(bad)));
    const { code, lines } = await runDoctor(sys, { browsers: ['chromium'], extensionIds: [OWN_IDS.chrome] });

    expect(code).toBe(1);
    expect(lines).toContain(`  ✗ ${CHROMIUM}: "description" is missing or empty`);
    expect(lines).toContain(`  ✗ ${CHROMIUM}: "path" (bin/tether-host) is not absolute`);
    expect(lines).toContain(
      `  ✗ ${CHROMIUM}: origin chrome-extension://gkplngjhinednckbmppipofijkaplcpm lacks its trailing slash`,
    );
    expect(lines).toContain(
      `  ✗ ${CHROMIUM}: "allowed_origins" holds a wildcard (chrome-extension://*/); list each extension`,
    );
    expect(lines).toContain(`  ✗ allowed_origins lacks ${OWN_IDS.chrome}`);
    expect(lines).toContain('      the browser says: "Access to the specified native messaging host is forbidden."');
    expect(sys.spawns).toEqual([]);
  });

  it('reports invalid JSON and a bad host name', async () => {
    const sys = await installedLinux();
    await sys.fs.writeFile(CHROMIUM, utf8('{"name": "Dev-Tether",'));
    const broken = await runDoctor(sys, { browsers: ['chromium'] });
    expect(broken.text).toMatch(/✗ .*: the manifest is not valid JSON/);

    await sys.fs.writeFile(
      CHROMIUM,
      utf8(
        JSON.stringify({
          name: 'Dev-Tether',
          description: 'x',
          path: LINUX_LAUNCHER,
          type: 'stdio',
          allowed_origins: [DEV_ORIGIN],
        }),
      ),
    );
    const named = await runDoctor(sys, { browsers: ['chromium'] });
    expect(named.lines).toContain('      the browser says: "Invalid native messaging host name specified."');
  });

  it('reports an invalid config file with the field and the fix', async () => {
    const sys = await installedLinux({
      files: { '/home/ada/.config/tether/config.json': '{"backends": {"x": {"kind": "command"}}}' },
    });
    const { code, text } = await runDoctor(sys, { browsers: ['chromium'] });

    expect(code).toBe(1);
    expect(text).toContain('✗ config /home/ada/.config/tether/config.json is invalid');
    expect(text).toMatch(/\| - backends\.x\.argv: .*Fix:/);
  });

  it('finds nothing to add to the config after install --extension-id: the launcher names the id to the host', async () => {
    const sys = linuxMachine({ spawn: () => goodHost() });
    await install(
      sys,
      installOptions(LINUX.host, [], { browsers: ['chromium'], extensionIds: ['abcdefghijklmnopabcdefghijklmnop'] }),
    );
    const { code, text } = await runDoctor(sys, { browsers: ['chromium'] });

    expect(code).toBe(0);
    expect(text).not.toContain('allowedExtensionIds');
  });

  it('warns when a manifest allows an id that neither the launcher nor the host config lets in', async () => {
    const sys = linuxMachine({ spawn: () => goodHost() });
    await install(
      sys,
      installOptions(LINUX.host, [], { browsers: ['chromium'], extensionIds: ['abcdefghijklmnopabcdefghijklmnop'] }),
    );
    // A launcher written before launchers named their ids.
    const launcher = '/home/ada/.local/share/tether/bin/tether-host';
    await sys.fs.writeFile(launcher, utf8(sys.readText(launcher).replace(/ --allow-extension=\S+/g, '')), 0o755);
    const { code, text } = await runDoctor(sys, { browsers: ['chromium'] });

    expect(code).toBe(0);
    expect(text).toContain(
      '! the manifests allow abcdefghijklmnopabcdefghijklmnop but neither the launcher nor "allowedExtensionIds" in /home/ada/.config/tether/config.json does',
    );
  });

  it('explains Flatpak and Snap browsers', async () => {
    const sys = await installedLinux({ dirs: ['/home/ada/.var/app/org.chromium.Chromium', '/snap/firefox/current'] });
    const { text } = await runDoctor(sys);

    expect(text).toContain('! Chromium is installed as a Flatpak (/home/ada/.var/app/org.chromium.Chromium).');
    expect(text).toContain('! Firefox is installed as a Snap (/snap/firefox).');
  });

  it('checks the manifest in --user-data-dir and names it in the fix', async () => {
    const { lines } = await runDoctor(linuxMachine(), { userDataDir: '/tmp/profile' });
    expect(lines).toContain(
      '  ✗ no manifest: looked at /tmp/profile/NativeMessagingHosts/dev.tether.bridge.json, /etc/chromium/native-messaging-hosts/dev.tether.bridge.json',
    );
    expect(lines).toContain('      fix: tether install --browser chromium --user-data-dir /tmp/profile');
  });

  it('lists the backend presets found on PATH', async () => {
    const sys = await installedLinux({
      files: {
        '/usr/local/bin/codex': { text: '', mode: 0o755 },
        '/usr/local/bin/claude-code-acp': { text: '', mode: 0o755 },
      },
    });
    const { code, lines } = await runDoctor(sys, {
      browsers: ['chromium'],
      presets: [
        { id: 'codex', label: 'OpenAI Codex', argv: ['codex', 'app-server'], install: 'npm install -g @openai/codex' },
        {
          id: 'claude',
          label: 'Claude Code (ACP)',
          argv: ['claude-code-acp'],
          signIn: (env) => `set ANTHROPIC_API_KEY in ${env}, or run \`claude /login\``,
        },
        {
          id: 'copilot',
          label: 'GitHub Copilot CLI',
          argv: ['copilot', '--acp'],
          install: 'npm install -g @github/copilot',
        },
      ],
    });
    expect(code).toBe(0);
    expect(lines).toContain('  ✓ codex - OpenAI Codex: /usr/local/bin/codex');
    expect(lines).toContain('  ✓ claude - Claude Code (ACP): /usr/local/bin/claude-code-acp');
    expect(lines).toContain(
      '  · claude signs in: set ANTHROPIC_API_KEY in backends.claude.env, or run `claude /login`',
    );
    expect(lines).toContain(
      '  · copilot - GitHub Copilot CLI: `copilot` not on PATH; install with `npm install -g @github/copilot`',
    );
  });
});

describe('tether doctor on macOS and Windows', () => {
  it('passes after install on macOS', async () => {
    const sys = darwinMachine({ spawn: () => goodHost() });
    await install(sys, installOptions(DARWIN.host, []));
    const { code } = await runDoctor(sys);
    expect(code).toBe(0);
    expect(sys.spawns.map((s) => s.cwd)).toEqual([
      '/Users/ada/Library/Application Support/tether/data/bin',
      '/Users/ada/Library/Application Support/tether/data/bin',
    ]);
  });

  it('finds the manifest through the HKCU key and starts the .cmd through cmd.exe as Chrome does', async () => {
    const sys = windowsMachine({ spawn: () => goodHost() });
    await install(sys, installOptions(WIN.host, [], { browsers: ['chrome'] }));
    sys.regCalls.length = 0;
    const { code, lines } = await runDoctor(sys, { browsers: ['chrome'] });

    const launcher = `${WIN.local}\\tether\\data\\bin\\tether-host.cmd`;
    const manifest = `${WIN.local}\\tether\\data\\NativeMessagingHosts\\chrome\\dev.tether.bridge.json`;
    expect(code).toBe(0);
    expect(sys.regCalls[0]).toEqual([
      'query',
      'HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\dev.tether.bridge',
      '/ve',
    ]);
    expect(lines).toContain(
      `  ✓ registry key HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\dev.tether.bridge -> ${manifest}`,
    );
    expect(sys.spawns).toEqual([
      {
        file: 'C:\\Windows\\System32\\cmd.exe',
        args: ['/d', '/s', '/c', `""${launcher}" ${OWN_ORIGIN} --parent-window=0"`],
        cwd: `${WIN.local}\\tether\\data\\bin`,
        verbatimArguments: true,
        env: IN_PROCESS,
      },
    ]);
  });

  it('reports a missing registry key with the reg.exe keys it looked at', async () => {
    const { code, lines } = await runDoctor(windowsMachine(), { browsers: ['edge'] });
    expect(code).toBe(1);
    expect(lines).toContain(
      '  ✗ no registry key: looked at HKCU\\Software\\Microsoft\\Edge\\NativeMessagingHosts\\dev.tether.bridge, HKLM\\Software\\Microsoft\\Edge\\NativeMessagingHosts\\dev.tether.bridge',
    );
    expect(lines).toContain('      the browser says: "Specified native messaging host not found."');
  });
});
