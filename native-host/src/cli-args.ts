/**
 * Command-line flags for every `tether` command, parsed by `node:util` `parseArgs` (`--flag value`, `--flag=value`,
 * repeated flags) with errors that say in the user's terms what is wrong. `parseArgs`'s own errors name its API
 * ("Option '--out <value>' argument missing"), so its tokens are checked here instead.
 */
import { parseArgs } from 'node:util';

/** One flag: a string (optionally repeatable) or a boolean switch. */
export interface FlagSpec {
  readonly type: 'string' | 'boolean';
  readonly multiple?: boolean;
  readonly short?: string;
  /** What the value is, for "--data-dir needs a folder" (default: "a value"). */
  readonly value?: string;
}

/** The value of one flag: a boolean, a list of strings (multiple) or a string. */
type FlagValue<F> = F extends { type: 'boolean' } ? boolean : F extends { multiple: true } ? string[] : string;

/** The parsed values by flag name (absent when not given). */
export type Flags<S extends Record<string, FlagSpec | undefined>> = {
  -readonly [K in keyof S]?: FlagValue<NonNullable<S[K]>>;
};

/** Bad command-line arguments; the CLI prints the message and the usage, and exits with 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Parses `args` against `specs`; throws UsageError. `command` names the command in "unknown option" errors. */
export function parseFlags<S extends Record<string, FlagSpec | undefined>>(
  args: readonly string[],
  specs: S,
  command: string,
): Flags<S> {
  const options: Record<string, FlagSpec> = {};
  for (const [name, spec] of Object.entries(specs)) if (spec) options[name] = spec;
  const { values, tokens } = parseArgs({
    args: [...args],
    options,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  for (const token of tokens) {
    if (token.kind === 'positional') throw new UsageError(`unexpected argument "${token.value}"`);
    if (token.kind !== 'option') continue;
    const spec = Object.hasOwn(options, token.name) ? options[token.name] : undefined;
    if (!spec) throw new UsageError(`unknown option ${token.rawName} for ${command}`);
    const flag = `--${token.name}`;
    if (spec.type === 'boolean' && token.value !== undefined) throw new UsageError(`${flag} takes no value`);
    if (spec.type === 'string' && (token.value === undefined || token.value === '')) {
      throw new UsageError(`${flag} needs ${spec.value ?? 'a value'}`);
    }
  }
  // Every token was checked against `specs`, so each value has the type its spec names.
  return values as Flags<S>;
}
