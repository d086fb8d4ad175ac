/** The generated schema committed under protocol/schema/ must be exactly what the code generates now. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderJsonSchemaFiles, renderTypeScriptFiles } from './schema-export';

const schemaRoot = join(dirname(fileURLToPath(import.meta.url)), '../schema');

const committed = [
  {
    dir: 'json',
    extension: '.json',
    render: renderJsonSchemaFiles,
    command: 'npx tether app-server generate-json-schema --out protocol/schema/json --prune',
  },
  {
    dir: 'typescript',
    extension: '.ts',
    render: renderTypeScriptFiles,
    command: 'npx tether app-server generate-ts --out protocol/schema/typescript --prune',
  },
];

describe('committed generated schema', () => {
  for (const c of committed) {
    it(`protocol/schema/${c.dir} matches the code (else run: ${c.command})`, () => {
      const dir = join(schemaRoot, c.dir);
      const stale = `protocol/schema/${c.dir} is out of date with protocol/src: regenerate it with \`${c.command}\` and commit the result`;
      const expected = c.render();
      const present = existsSync(dir)
        ? readdirSync(dir)
            .filter((f) => f.endsWith(c.extension))
            .sort()
        : [];
      expect(present, stale).toEqual(Object.keys(expected).sort());
      for (const [name, text] of Object.entries(expected)) {
        expect(readFileSync(join(dir, name), 'utf8'), `${stale} (${name} differs)`).toBe(text);
      }
    });
  }
});
