import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JsonlAppender, readJsonlFile } from './jsonl-file';
import { useTempDirs } from '../testing/temp-dirs';

const tempFileDir = useTempDirs('tether-jsonl-');
/** A path to a file that does not exist yet, in a fresh directory. */
const tempFile = (): string => join(tempFileDir(), 'f.jsonl');

describe('JSONL files', () => {
  it('reads back what was appended, one record per line', () => {
    const path = tempFile();
    const a = new JsonlAppender(path);
    a.append({ n: 1 }, { n: 2 });
    a.append({ n: 3, text: 'line\nbreak' });
    a.close();
    expect(readJsonlFile(path)).toEqual({
      records: [{ n: 1 }, { n: 2 }, { n: 3, text: 'line\nbreak' }],
      badLines: 0,
      tornTail: false,
    });
  });

  it('skips a torn last line left by a crash without touching the file, and appends after it on a new line', () => {
    const path = tempFile();
    writeFileSync(path, '{"n":1}\n{"n":2}\n{"n":3,"te');
    expect(readJsonlFile(path)).toEqual({ records: [{ n: 1 }, { n: 2 }], badLines: 0, tornTail: true });
    expect(readFileSync(path, 'utf8')).toBe('{"n":1}\n{"n":2}\n{"n":3,"te');
    const a = new JsonlAppender(path);
    a.append({ n: 4 });
    a.append({ n: 5 });
    a.close();
    expect(readJsonlFile(path)).toEqual({
      records: [{ n: 1 }, { n: 2 }, { n: 4 }, { n: 5 }],
      badLines: 1,
      tornTail: false,
    });
  });

  it('never writes to a file it reads, so a line another process is still appending stays whole', () => {
    const path = tempFile();
    writeFileSync(path, '{"n":1}\n{"n":2,"te');
    expect(readJsonlFile(path).tornTail).toBe(true);
    appendFileSync(path, 'xt":"done"}\n');
    expect(readJsonlFile(path)).toEqual({ records: [{ n: 1 }, { n: 2, text: 'done' }], badLines: 0, tornTail: false });
  });

  it('keeps a complete last record that only lost its newline, and appends after it on a new line', () => {
    const path = tempFile();
    writeFileSync(path, '{"n":1}\n{"n":2}');
    expect(readJsonlFile(path).records).toEqual([{ n: 1 }, { n: 2 }]);
    new JsonlAppender(path).append({ n: 3 });
    expect(readJsonlFile(path)).toEqual({ records: [{ n: 1 }, { n: 2 }, { n: 3 }], badLines: 0, tornTail: false });
  });

  it('skips unreadable lines in the middle and counts them', () => {
    const path = tempFile();
    writeFileSync(path, '{"n":1}\nnot json\n\n{"n":2}\n');
    expect(readJsonlFile(path)).toEqual({ records: [{ n: 1 }, { n: 2 }], badLines: 1, tornTail: false });
  });

  it('reads an absent file as empty', () => {
    expect(readJsonlFile(join(tmpdir(), 'tether-no-such-file.jsonl')).records).toEqual([]);
  });
});
