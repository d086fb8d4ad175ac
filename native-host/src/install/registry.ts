/** The `reg.exe` commands Tether runs on Windows, and reading their answers. */
import type { System } from './system';

/** Arguments that set a key's default value to `value` (creating the key), replacing any previous value. */
export function regAddArgs(key: string, value: string): string[] {
  return ['add', key, '/ve', '/t', 'REG_SZ', '/d', value, '/f'];
}

/** Arguments that delete a key. */
export function regDeleteArgs(key: string): string[] {
  return ['delete', key, '/f'];
}

/** Arguments that print a key's default value. */
export function regQueryArgs(key: string): string[] {
  return ['query', key, '/ve'];
}

/** The command line as a user would type it (for `--dry-run` and doctor's fixes). */
export function formatRegCommand(args: readonly string[]): string {
  return ['reg.exe', ...args.map((a) => (/[\s"]/.test(a) || a.includes('\\') ? `"${a}"` : a))].join(' ');
}

/**
 * The default value from `reg query KEY /ve` output. The value's label is localised ("(Default)", "(Standard)"...),
 * so the line is recognised by its type column.
 */
export function parseRegQuery(stdout: string): string | undefined {
  for (const line of stdout.split(/\r?\n/)) {
    const match = /^\s+\S.*?\s{2,}REG_(?:EXPAND_)?SZ\s{2,}(.*?)\s*$/.exec(line);
    // A key without a default value lists it as "(value not set)" (English Windows; other languages translate it).
    if (match) return match[1] === '(value not set)' ? undefined : match[1]!;
  }
  return undefined;
}

/** A key's default value, or undefined when the key (or its value) does not exist. */
export async function readRegistryValue(sys: System, key: string): Promise<string | undefined> {
  const result = await sys.reg(regQueryArgs(key));
  return result.code === 0 ? parseRegQuery(result.stdout) : undefined;
}
