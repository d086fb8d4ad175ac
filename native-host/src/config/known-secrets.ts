/**
 * Which values of the config file are secrets. A backend's `env` is where users put API keys, under any name
 * (`MY_LLM_CREDENTIAL`), so each of its values counts as a secret unless the variable is a well-known setting (a path,
 * a locale, a URL, a model id), whose masking would only make logs and messages harder to read. A URL still gives up
 * its user-info and secret query values.
 */
import { isSecretName, secretsInUrl } from '@tether/protocol/redact';
import type { BackendConfig } from './schema';

const SETTING_NAMES = new Set([
  ...['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LANGUAGE', 'TERM', 'TZ', 'PWD'],
  ...['TMPDIR', 'TEMP', 'TMP', 'NODE_ENV', 'NODE_OPTIONS', 'DEBUG'],
]);
const SETTING_PATTERN =
  /^(?:LC_|XDG_)|_(?:PATH|DIR|HOME|MODEL|URL|HOST|PORT|LEVEL|MODE|LOG|DEBUG|TIMEOUT|TIMEOUT_MS|BACKTRACE)$/;

/** The secret values of one backend's `env`: every value but those of well-known settings, plus URL credentials. */
export function backendEnvSecrets(env: Readonly<Record<string, string>> | undefined): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(env ?? {})) {
    const setting =
      !isSecretName(name) && (SETTING_NAMES.has(name.toUpperCase()) || SETTING_PATTERN.test(name.toUpperCase()));
    if (!setting) out.push(value);
    if (value.includes('://')) out.push(...secretsInUrl(value));
  }
  return out;
}

/** The secret values of every configured backend: a command's env, the built-in backend's key and URL credentials. */
export function configSecrets(backends: Readonly<Record<string, BackendConfig>>): string[] {
  return Object.values(backends).flatMap((b) => {
    if (b.kind === 'command') return backendEnvSecrets(b.env);
    const openai = b.openai;
    if (!openai) return [];
    return [...(openai.apiKey ? [openai.apiKey] : []), ...secretsInUrl(openai.baseUrl)];
  });
}
