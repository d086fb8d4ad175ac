/**
 * What the real agents need to start without calling out, shared by the real-agent tests (test/agents/) and the
 * agents benchmark (bench/agents.bench.mjs).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Without these Claude Code calls api.anthropic.com (never the base URL) for flags, telemetry and fast mode. */
export const CLAUDE_OFFLINE_ENV = {
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  DISABLE_TELEMETRY: '1',
  DISABLE_ERROR_REPORTING: '1',
  DISABLE_AUTOUPDATER: '1',
  CLAUDE_CODE_DISABLE_FAST_MODE: '1',
};

/** Writes `home`'s Gemini settings that stop its only outside call (usage statistics) and its update check. */
export function writeGeminiOfflineSettings(home: string): void {
  mkdirSync(join(home, '.gemini'), { recursive: true });
  writeFileSync(
    join(home, '.gemini/settings.json'),
    JSON.stringify({
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { enableAutoUpdate: false },
    }),
  );
}
