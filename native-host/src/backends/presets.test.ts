import { describe, expect, it } from 'vitest';
import { CommandBackendConfig } from '../config/schema';
import { BACKEND_PRESETS, findPreset, presetBackendConfig, presetOf } from './presets';

describe('backend presets', () => {
  it('offers codex, copilot, claude and gemini with their commands and dialects', () => {
    expect(BACKEND_PRESETS.map((p) => [p.id, p.argv.join(' '), p.dialect])).toEqual([
      ['codex', 'codex app-server', 'codex'],
      ['copilot', 'copilot --acp', 'acp'],
      ['claude', 'claude-code-acp', 'acp'],
      ['gemini', 'gemini --acp', 'acp'],
    ]);
  });

  it('installs each agent from its npm package and updates it to the package at @latest', () => {
    expect(BACKEND_PRESETS.map((p) => [p.id, p.install, p.update])).toEqual([
      ['codex', 'npm install -g @openai/codex', 'npm install -g @openai/codex@latest'],
      ['copilot', 'npm install -g @github/copilot', 'npm install -g @github/copilot@latest'],
      [
        'claude',
        'npm install -g @zed-industries/claude-code-acp',
        'npm install -g @zed-industries/claude-code-acp@latest',
      ],
      ['gemini', 'npm install -g @google/gemini-cli', 'npm install -g @google/gemini-cli@latest'],
    ]);
  });

  it("starts Gemini without its relaunch, and says how each agent signs in, naming the entry's env", () => {
    expect(presetBackendConfig(findPreset('gemini')!).env).toEqual({ GEMINI_CLI_NO_RELAUNCH: 'true' });
    expect(presetBackendConfig(findPreset('claude')!).env).toBeUndefined();
    const env = 'backends.x.env';
    expect(findPreset('claude')!.signIn(env)).toMatch(/ANTHROPIC_API_KEY in backends\.x\.env.*`claude \/login`/);
    expect(findPreset('gemini')!.signIn(env)).toContain('GEMINI_API_KEY in backends.x.env');
    expect(findPreset('copilot')!.signIn(env)).toContain('`copilot login`');
    expect(findPreset('codex')!.signIn(env)).toContain('`codex login`');
  });

  it('knows a running agent by its backend id, its command or the name it gives itself', () => {
    expect(presetOf({ backendId: 'gemini' })?.id).toBe('gemini');
    expect(presetOf({ backendId: 'work', command: '/opt/x/node_modules/.bin/claude-code-acp' })?.id).toBe('claude');
    expect(presetOf({ backendId: 'work', agentName: 'Gemini CLI' })?.id).toBe('gemini');
    expect(presetOf({ backendId: 'work', command: '/usr/bin/other', agentName: 'Other' })).toBeUndefined();
  });

  it('makes config entries that the config schema accepts', () => {
    for (const preset of BACKEND_PRESETS)
      expect(CommandBackendConfig.parse(presetBackendConfig(preset))).toMatchObject({
        kind: 'command',
        dialect: preset.dialect,
      });
    expect(presetBackendConfig(findPreset('copilot')!, '/opt/bin/copilot').argv).toEqual(['/opt/bin/copilot', '--acp']);
    expect(findPreset('nope')).toBeUndefined();
  });
});
