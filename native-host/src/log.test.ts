import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileLog, redactSecrets } from './log';
import { useTempDirs } from './testing/temp-dirs';

const tempDir = useTempDirs('tether-log-');

describe('createFileLog', () => {
  it('creates the state directory and appends timestamped, tagged lines', () => {
    const file = join(tempDir(), 'state', 'tether', 'host.log');
    const log = createFileLog({ file, tag: 'host 42' });
    log.log('started');
    log.log('stopped');
    log.close();
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z \[host 42\] started$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('rotates to .1 when the file passes its cap, keeping the size bounded', () => {
    const file = join(tempDir(), 'host.log');
    const log = createFileLog({ file, maxBytes: 4096 });
    for (let i = 0; i < 200; i++) log.log(`line ${i} ${'x'.repeat(60)}`);
    log.close();
    expect(existsSync(`${file}.1`)).toBe(true);
    expect(statSync(file).size).toBeLessThanOrEqual(4096 + 200);
    expect(statSync(`${file}.1`).size).toBeLessThanOrEqual(4096 + 200);
    expect(readFileSync(file, 'utf8')).toContain('line 199');
  });

  it('never writes secrets to the file', () => {
    const file = join(tempDir(), 'host.log');
    const log = createFileLog({ file });
    log.log('spawn env OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwx and {"token":"hunter2hunter2"}');
    log.close();
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('abcdefghijklmnopqrstuvwx');
    expect(text).not.toContain('hunter2');
    expect(text).toContain('OPENAI_API_KEY=***');
  });
});

describe('redactSecrets', () => {
  it('masks bearer tokens, GitHub tokens and password fields but keeps ordinary text', () => {
    expect(redactSecrets('Authorization: Bearer abc.def.ghi123')).toBe('Authorization: Bearer ***');
    expect(redactSecrets('ghp_0123456789abcdefghijABCD')).toBe('gh*_***');
    expect(redactSecrets('{"password": "p\\"w"}')).toBe('{"password": "***"}');
    expect(redactSecrets('backend vv exited with code 1')).toBe('backend vv exited with code 1');
  });

  it('masks the values of secret-looking command-line flags', () => {
    expect(redactSecrets('started pid 7: agent --api-key abc123 --model m')).toBe('started pid 7: agent --api-key *** --model m');
    expect(redactSecrets('agent --auth-token=xyz --password hunter2')).toBe('agent --auth-token=*** --password ***');
    expect(redactSecrets('agent --listen stdio')).toBe('agent --listen stdio');
  });
});
