import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderJsonSchemaFiles, renderTypeScriptFiles } from '@tether/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from './schema-commands';

let dir: string;
let stdout: string[];
let stderr: string[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tether-schema-'));
  stdout = [];
  stderr = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (stdout.push(String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (stderr.push(String(chunk)), true));
});

afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

describe('tether app-server generate-json-schema / generate-ts', () => {
  it('writes every JSON Schema file into a new directory and says so', async () => {
    const out = join(dir, 'json');
    expect(await main(['generate-json-schema', '--out', out])).toBe(0);
    const expected = renderJsonSchemaFiles();
    expect(readdirSync(out).sort()).toEqual(Object.keys(expected).sort());
    for (const [name, text] of Object.entries(expected)) expect(readFileSync(join(out, name), 'utf8')).toBe(text);
    expect(stdout.join('')).toContain(`wrote ${join(out, 'ThreadStartParams.json')}`);
    expect(stdout.at(-1)).toBe(
      `JSON Schema: ${Object.keys(expected).length} file(s) in ${out}, ${Object.keys(expected).length} written, 0 unchanged\n`,
    );
  });

  it('writes the TypeScript bundle, and rewrites nothing on a second run', async () => {
    expect(await main(['generate-ts', `--out=${dir}`])).toBe(0);
    const [[name, text]] = Object.entries(renderTypeScriptFiles()) as [[string, string]];
    expect(readFileSync(join(dir, name), 'utf8')).toBe(text);
    stdout.length = 0;
    expect(await main(['generate-ts', '--out', dir])).toBe(0);
    expect(stdout).toEqual([`TypeScript: 1 file(s) in ${dir}, 0 written, 1 unchanged\n`]);
  });

  it('warns about files it no longer generates and deletes them with --prune', async () => {
    writeFileSync(join(dir, 'OldMessage.json'), '{}\n');
    writeFileSync(join(dir, 'README.md'), 'kept\n');
    expect(await main(['generate-json-schema', '--out', dir])).toBe(0);
    expect(stderr.join('')).toContain(
      `warning: ${join(dir, 'OldMessage.json')} is not generated any more; run again with --prune`,
    );
    expect(existsSync(join(dir, 'OldMessage.json'))).toBe(true);
    expect(await main(['generate-json-schema', '--out', dir, '--prune'])).toBe(0);
    expect(existsSync(join(dir, 'OldMessage.json'))).toBe(false);
    expect(existsSync(join(dir, 'README.md'))).toBe(true);
    expect(stdout.join('')).toContain(`deleted ${join(dir, 'OldMessage.json')} (no longer generated)`);
  });

  it('exits 2 with the usage when --out is missing or an argument is unknown', async () => {
    expect(await main(['generate-ts'])).toBe(2);
    expect(stderr.join('')).toContain('--out DIR is required');
    expect(await main(['generate-ts', '--out', dir, '--bogus'])).toBe(2);
    expect(stderr.join('')).toContain('unknown option --bogus for tether app-server');
    expect(await main(['generate-nothing'])).toBe(2);
    expect(stderr.join('')).toContain('Usage: tether app-server generate-json-schema --out DIR');
  });

  it('exits 1 with the reason when the directory cannot be written', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    expect(await main(['generate-ts', '--out', join(file, 'sub')])).toBe(1);
    expect(stderr.join('')).toContain(`could not write ${join(file, 'sub')}`);
  });
});
