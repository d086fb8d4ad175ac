/**
 * `tether app-server generate-json-schema --out DIR` and `tether app-server generate-ts --out DIR`: write the
 * protocol's JSON Schema files or TypeScript bundle (from @tether/protocol) to DIR. Not protocol commands: the
 * report goes to stdout.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderJsonSchemaFiles, renderTypeScriptFiles } from '@tether/protocol';
import { type FlagSpec, type Flags, parseFlags, UsageError } from './cli-args';
import { errorMessage } from '@tether/protocol/errors';

interface Generator {
  readonly what: string;
  /** Extension of the files this generator owns in DIR (stale ones are reported or pruned). */
  readonly extension: string;
  readonly render: () => Record<string, string>;
}

const generators: Record<string, Generator> = {
  'generate-json-schema': { what: 'JSON Schema', extension: '.json', render: renderJsonSchemaFiles },
  'generate-ts': { what: 'TypeScript', extension: '.ts', render: renderTypeScriptFiles },
};

const USAGE = [
  'Usage: tether app-server generate-json-schema --out DIR [--prune]',
  '       tether app-server generate-ts --out DIR [--prune]',
  '  --out DIR   directory to write (created if missing)',
  '  --prune     delete other .json (resp. .ts) files in DIR, left over from renamed messages',
].join('\n');

/** What a run changed in the output directory. */
export interface GenerateReport {
  readonly written: string[];
  readonly unchanged: string[];
  readonly stale: string[];
  readonly pruned: string[];
}

/** Writes the files of `command` into `dir`; only files whose content changed are rewritten. */
export function generateInto(command: keyof typeof generators, dir: string, prune: boolean): GenerateReport {
  const generator = generators[command]!;
  const files = generator.render();
  mkdirSync(dir, { recursive: true });
  const report: GenerateReport = { written: [], unchanged: [], stale: [], pruned: [] };
  for (const [name, text] of Object.entries(files)) {
    const path = join(dir, name);
    if (readIfExists(path) === text) {
      report.unchanged.push(name);
      continue;
    }
    writeFileSync(path, text);
    report.written.push(name);
  }
  for (const name of readdirSync(dir).sort()) {
    if (!name.endsWith(generator.extension) || name in files) continue;
    if (prune) {
      rmSync(join(dir, name));
      report.pruned.push(name);
    } else {
      report.stale.push(name);
    }
  }
  return report;
}

const FLAGS = {
  help: { type: 'boolean', short: 'h' },
  out: { type: 'string', value: 'a folder' },
  prune: { type: 'boolean' },
} as const satisfies Record<string, FlagSpec>;

/** Entry point: `args` starts with the subcommand; resolves to the exit code. */
export async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  if (command === undefined || !(command in generators)) {
    process.stderr.write(`tether app-server: unknown schema command "${command ?? ''}"\n${USAGE}\n`);
    return 2;
  }
  let flags: Flags<typeof FLAGS>;
  try {
    flags = parseFlags(rest, FLAGS, `tether app-server ${command}`);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`tether app-server ${command}: ${error.message}\n${USAGE}\n`);
    return 2;
  }
  if (flags.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const out = flags.out;
  const prune = flags.prune ?? false;
  if (!out) {
    process.stderr.write(`tether app-server ${command}: --out DIR is required\n${USAGE}\n`);
    return 2;
  }
  const generator = generators[command]!;
  let report: GenerateReport;
  try {
    report = generateInto(command, out, prune);
  } catch (error) {
    process.stderr.write(`tether app-server ${command}: could not write ${out}: ${errorMessage(error)}\n`);
    return 1;
  }
  for (const name of report.written) process.stdout.write(`wrote ${join(out, name)}\n`);
  for (const name of report.pruned) process.stdout.write(`deleted ${join(out, name)} (no longer generated)\n`);
  for (const name of report.stale) {
    process.stderr.write(
      `warning: ${join(out, name)} is not generated any more; run again with --prune to delete it\n`,
    );
  }
  const total = report.written.length + report.unchanged.length;
  process.stdout.write(
    `${generator.what}: ${total} file(s) in ${out}, ${report.written.length} written, ${report.unchanged.length} unchanged\n`,
  );
  return 0;
}

function readIfExists(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
