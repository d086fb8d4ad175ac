import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mimeTypeOf, readFiles } from './files-read';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tether-files-'));
  await writeFile(join(dir, 'notes.txt'), 'hello world');
  await writeFile(join(dir, 'photo.PNG'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  await mkdir(join(dir, 'folder'));
  execFileSync('mkfifo', [join(dir, 'pipe')]);
  await symlink('/dev/null', join(dir, 'looks-like-a-file.txt'));
  await symlink(join(dir, 'notes.txt'), join(dir, 'link.txt'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('bridge/files/read', () => {
  it('describes regular files by absolute path, and returns their bytes only when asked', async () => {
    const paths = [join(dir, 'notes.txt'), join(dir, 'photo.PNG')];
    expect(await readFiles({ paths })).toEqual({
      files: [
        { path: paths[0], name: 'notes.txt', type: 'text/plain', size: 11 },
        { path: paths[1], name: 'photo.PNG', type: 'image/png', size: 4 },
      ],
    });
    const withBytes = await readFiles({ paths, bytes: true });
    expect(Buffer.from(withBytes.files[0]?.base64 ?? '', 'base64').toString()).toBe('hello world');
    expect(withBytes.files[1]?.base64).toBe(Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString('base64'));
  });

  it('follows a symlink to a regular file, but refuses one into a device, a pipe (without hanging) and a folder', async () => {
    expect((await readFiles({ paths: [join(dir, 'link.txt')], bytes: true })).files[0]?.size).toBe(11);
    await expect(readFiles({ paths: [join(dir, 'looks-like-a-file.txt')] })).rejects.toThrow(
      'is a device, not a file; only regular files can be uploaded',
    );
    await expect(readFiles({ paths: [join(dir, 'pipe')], bytes: true })).rejects.toThrow('is a pipe, not a file');
    await expect(readFiles({ paths: [join(dir, 'folder')] })).rejects.toThrow('is a folder, not a file');
  });

  it('refuses a relative or missing path, and more bytes than the limit, naming what to do', async () => {
    await expect(readFiles({ paths: ['notes.txt'] })).rejects.toThrow(
      '"notes.txt" is not an absolute path; give the full path of the file.',
    );
    await expect(readFiles({ paths: [join(dir, 'gone.txt')] })).rejects.toThrow(/There is no file at .*gone\.txt/);
    await expect(readFiles({ paths: [join(dir, 'notes.txt')], bytes: true }, 5)).rejects.toThrow(
      'upload fewer or smaller files',
    );
    // Without bytes nothing is carried, so size is no reason to refuse (trusted input gives the browser the path).
    expect((await readFiles({ paths: [join(dir, 'notes.txt')] }, 5)).files).toHaveLength(1);
  });

  it('types files by extension as a file picker does, and unknown ones as octet-stream', () => {
    expect(mimeTypeOf('report.pdf')).toBe('application/pdf');
    expect(mimeTypeOf('archive.tar.gz')).toBe('application/octet-stream');
    expect(mimeTypeOf('constructor')).toBe('application/octet-stream');
    expect(mimeTypeOf('x.__proto__')).toBe('application/octet-stream');
  });
});
