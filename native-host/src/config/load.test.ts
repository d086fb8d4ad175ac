import { chmodSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { secrets } from '../secrets';
import { ConfigError } from './config-error';
import { loadConfig } from './load';

const base = { platform: 'linux' as const, homedir: '/home/ada', env: {} as Record<string, string | undefined> };
const FILE = '/home/ada/.config/tether/config.json';

function load(text: string | undefined, env: Record<string, string> = {}) {
  return loadConfig({
    ...base,
    env,
    readFile: (file) => {
      if (text === undefined) throw Object.assign(new Error(`ENOENT: ${file}`), { code: 'ENOENT' });
      return text;
    },
  });
}

function errorOf(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('uses the embedded backend when there is no config file', () => {
    const config = load(undefined);
    expect(config.source).toBe('default');
    expect(config.file).toBe(FILE);
    expect(config.defaultBackend).toBe('embedded');
    expect(Object.keys(config.backends)).toEqual(['embedded']);
    expect(config.dataDir).toBe('/home/ada/.local/share/tether');
  });

  it('reads command backends and resolves a relative cwd against the file', () => {
    const config = load(
      JSON.stringify({
        defaultBackend: 'vv',
        backends: { vv: { kind: 'command', argv: ['vv-agent', 'app-server'], cwd: 'work', env: { A: '1' } } },
        allowedExtensionIds: ['abcdefghijklmnopabcdefghijklmnop', 'me@example.org'],
      }),
    );
    expect(config.defaultBackend).toBe('vv');
    expect(config.backends['vv']).toEqual({
      kind: 'command',
      argv: ['vv-agent', 'app-server'],
      cwd: '/home/ada/.config/tether/work',
      env: { A: '1' },
      dialect: 'tether',
    });
    expect(config.backends['embedded']?.kind).toBe('embedded');
    expect(config.allowedExtensionIds).toEqual(['abcdefghijklmnopabcdefghijklmnop', 'me@example.org']);
  });

  it('accepts the example of native-host/README.md', () => {
    const config = load(
      JSON.stringify({
        defaultBackend: 'vv',
        backends: {
          vv: { kind: 'command', argv: ['vv-agent', 'app-server', '--listen', 'stdio'] },
          devbox: { kind: 'command', argv: ['ssh', 'devbox', 'vv-agent', 'app-server', '--listen', 'stdio'] },
          codex: { kind: 'command', argv: ['codex', 'app-server'], dialect: 'codex', cwd: '~/src' },
          embedded: { kind: 'embedded', model: 'scripted', dataDir: null },
        },
        allowedExtensionIds: ['abcdefghijklmnopabcdefghijklmnop'],
      }),
    );
    expect(Object.keys(config.backends)).toEqual(['embedded', 'vv', 'devbox', 'codex']);
    expect(config.backends['codex']).toMatchObject({ dialect: 'codex', cwd: '/home/ada/src' });
    expect(config.backends['embedded']).toMatchObject({ kind: 'embedded', dataDir: null });
  });

  it('names the file, the field and the fix for a bad argv', () => {
    const error = errorOf(() => load(JSON.stringify({ backends: { vv: { kind: 'command', argv: 'vv-agent' } } })));
    expect(error.file).toBe(FILE);
    expect(error.issues[0]?.field).toBe('backends.vv.argv');
    expect(error.message).toContain(FILE);
    expect(error.message).toContain('backends.vv.argv');
    expect(error.message).toContain('JSON array of strings');
  });

  it('reports misspelt fields instead of ignoring them', () => {
    const error = errorOf(() =>
      load(JSON.stringify({ backends: { vv: { kind: 'command', argV: ['x'], argv: ['x'] } } })),
    );
    expect(error.issues[0]).toMatchObject({ field: 'backends.vv', message: 'unknown field "argV"' });
  });

  it('explains an unknown kind and dialect', () => {
    const kind = errorOf(() => load(JSON.stringify({ backends: { x: { kind: 'docker', argv: ['x'] } } })));
    expect(kind.message).toContain('"embedded"');
    const dialect = errorOf(() =>
      load(JSON.stringify({ backends: { x: { kind: 'command', argv: ['x'], dialect: 'mcp' } } })),
    );
    expect(dialect.issues[0]?.field).toBe('backends.x.dialect');
    expect(dialect.message).toContain('"codex"');
  });

  it('rejects a default backend that is not configured', () => {
    const error = errorOf(() => load(JSON.stringify({ defaultBackend: 'codex' })));
    expect(error.issues[0]).toMatchObject({ field: 'defaultBackend' });
    expect(error.message).toContain('configured: embedded');
  });

  it('rejects a default backend named like an inherited member, such as "constructor" or "toString"', () => {
    for (const name of ['constructor', 'toString', 'hasOwnProperty', '__proto__']) {
      const error = errorOf(() => load(JSON.stringify({ defaultBackend: name })));
      expect(error.issues[0]).toMatchObject({ field: 'defaultBackend' });
      expect(error.message).toContain(`"${name}" is not a configured backend (configured: embedded)`);
    }
  });

  it('rejects a backend with a reserved id such as "__proto__" instead of dropping it', () => {
    const proto = errorOf(() =>
      load('{"defaultBackend": "__proto__", "backends": {"__proto__": {"kind": "command", "argv": ["x"]}}}'),
    );
    expect(proto.issues[0]).toMatchObject({ field: 'backends.__proto__' });
    expect(proto.message).toContain('"__proto__" is a reserved name');
    expect(proto.message).toContain('rename the backend');
    const ctor = errorOf(() => load(JSON.stringify({ backends: { constructor: { kind: 'command', argv: ['x'] } } })));
    expect(ctor.issues[0]).toMatchObject({ field: 'backends.constructor' });
    expect(ctor.message).toContain('"constructor" is a reserved name');
  });

  it('gives the fix of the field, never an inherited function, for a bad value under a name like "toString"', () => {
    const error = errorOf(() =>
      load(JSON.stringify({ backends: { vv: { kind: 'command', argv: ['x'], env: { toString: 5 } } } })),
    );
    expect(error.issues[0]?.field).toBe('backends.vv.env.toString');
    expect(error.message).toContain('map variable names to string values');
    expect(error.message).not.toContain('native code');
  });

  it('says which rule a backend id breaks', () => {
    const error = errorOf(() => load(JSON.stringify({ backends: { '-x': { kind: 'command', argv: ['x'] } } })));
    expect(error.issues[0]).toMatchObject({
      field: 'backends.-x',
      message: 'backend ids use letters, digits, ".", "_" and "-"',
    });
  });

  it('points at the line and column of a JSON syntax error', () => {
    const error = errorOf(() => load('{\n  "defaultBackend": "embedded",\n}'));
    expect(error.message).toMatch(/not valid JSON at line 3/);
    expect(error.message).toContain('trailing commas');
  });

  it('never quotes the file in a JSON syntax error, since the file may hold API keys', () => {
    const error = errorOf(() =>
      load('{\n  "backends": { "x": { "kind": "command", "argv": ["a"], "env": { "KEY": sk-secret123 } } }\n}'),
    );
    expect(error.message).toMatch(/not valid JSON/);
    expect(error.message).toContain("Unexpected token 's'");
    expect(error.message).not.toContain('secret');
    expect(errorOf(() => load('{"k": sk-1}')).message).not.toContain('sk-1');
  });

  it('rejects an id that is neither a Chrome nor a Firefox id', () => {
    const error = errorOf(() => load(JSON.stringify({ allowedExtensionIds: ['chrome-extension://abc/'] })));
    expect(error.issues[0]?.field).toBe('allowedExtensionIds.0');
  });

  it('refuses the development ids in allowedExtensionIds, since their key is public', () => {
    for (const id of ['gkplngjhinednckbmppipofijkaplcpm', 'tether@tether.dev']) {
      const error = errorOf(() =>
        load(JSON.stringify({ allowedExtensionIds: ['abcdefghijklmnopabcdefghijklmnop', id] })),
      );
      expect(error.issues[0]?.field).toBe('allowedExtensionIds.1');
      expect(error.message).toContain("the development build's id, whose key is public");
      expect(error.message).toContain('tether install --dev');
    }
  });

  it('requires the file TETHER_CONFIG names to exist', () => {
    const error = errorOf(() => load(undefined, { TETHER_CONFIG: '/etc/tether.json' }));
    expect(error.file).toBe('/etc/tether.json');
    expect(error.message).toContain('unset TETHER_CONFIG');
  });

  it("masks the values of a backend's env from then on, whatever their name, but not well-known settings", () => {
    const env = {
      MY_LLM_CREDENTIAL: 'cfg-secret-value-1',
      PATH: '/usr/local/bin:/bin',
      VV_MODEL: 'gpt-4.1-mini-long',
      VV_URL: 'https://u:cfg-url-pass@h/v1',
    };
    load(JSON.stringify({ backends: { vv: { kind: 'command', argv: ['vv'], env } } }));
    expect(secrets.text('cfg-secret-value-1 /usr/local/bin:/bin gpt-4.1-mini-long cfg-url-pass')).toBe(
      '*** /usr/local/bin:/bin gpt-4.1-mini-long ***',
    );
  });

  it('tightens a config file and config folder that others can read, with a note for the log', () => {
    const home = mkdtempSync(join(tmpdir(), 'tether-config-'));
    const dir = join(home, 'config', 'tether');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'config.json'), '{}');
    chmodSync(dir, 0o755);
    chmodSync(join(dir, 'config.json'), 0o644);
    const config = loadConfig({ platform: 'linux', homedir: home, env: { XDG_CONFIG_HOME: join(home, 'config') } });
    expect(config.source).toBe('file');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(config.notes).toHaveLength(2);
  });
  it("reads how long the daemon's page tools wait for a browser, in seconds, with 3 minutes by default", () => {
    expect(load(undefined).pageToolWaitMs).toBe(180_000);
    expect(load(JSON.stringify({ daemon: { pageToolWaitSeconds: 2.5 } })).pageToolWaitMs).toBe(2500);
    const error = errorOf(() => load(JSON.stringify({ daemon: { pageToolWaitSeconds: -1 } })));
    expect(error.message).toContain('pageToolWaitSeconds');
    expect(error.message).toContain('give a number of seconds from 0 (fail at once) to 86400');
  });
  it('reads whether the host relays to the daemon, leaving it to the default when the file does not say', () => {
    expect(load(undefined).daemonEnabled).toBeUndefined();
    expect(load(JSON.stringify({ daemon: { enabled: false } })).daemonEnabled).toBe(false);
    expect(load(JSON.stringify({ daemon: { enabled: true } })).daemonEnabled).toBe(true);
    const error = errorOf(() => load(JSON.stringify({ daemon: { enabled: 'no' } })));
    expect(error.message).toContain('give true (turns run in the Tether daemon and outlive the browser) or false');
  });
});
