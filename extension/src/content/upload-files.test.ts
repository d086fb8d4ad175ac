import { describe, expect, it } from 'vitest';
import { UPLOAD_MAX_BYTES } from '../shared/agent-contract';
import { accepts, base64Size, checkFiles } from './upload-files';

const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('upload checks', () => {
  it('sizes base64 without decoding it', () => {
    for (const text of ['', 'a', 'ab', 'abc', 'abcd', 'hello world']) expect(base64Size(b64(text))).toBe(text.length);
  });

  it('refuses no files, folder names, bad base64 and files over the limit, saying which', () => {
    expect(() => checkFiles([])).toThrow('No files were given to upload.');
    expect(() => checkFiles([{ name: '../x.txt', type: 'text/plain', base64: b64('x') }])).toThrow(
      'File name "../x.txt" must be a plain name without folders.',
    );
    expect(() => checkFiles([{ name: 'x.txt', type: 'text/plain', base64: 'not base64!' }])).toThrow(
      'The bytes of "x.txt" are not valid base64.',
    );
    const two = [
      { name: 'a.bin', type: '', base64: b64('a'.repeat(600)) },
      { name: 'b.bin', type: '', base64: b64('b'.repeat(600)) },
    ];
    expect(() => checkFiles(two, 1000)).toThrow('The files add up to 0.0 MB; the page agent takes at most 0.0 MB');
    expect(() => checkFiles(two, 1200)).not.toThrow();
    expect(UPLOAD_MAX_BYTES).toBe(32 * 1024 * 1024);
  });

  it('matches accept lists by extension, wildcard and exact type', () => {
    expect(accepts('', 'a.txt', 'text/plain')).toBe(true);
    expect(accepts('.pdf, image/*', 'scan.PDF', '')).toBe(true);
    expect(accepts('.pdf, image/*', 'cat.png', 'image/png')).toBe(true);
    expect(accepts('.pdf, image/*', 'notes.txt', 'text/plain')).toBe(false);
    expect(accepts('text/csv', 'data.csv', 'text/csv')).toBe(true);
  });
});
