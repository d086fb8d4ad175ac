import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileLog, redactSecrets } from './log';
import { secrets } from './secrets';
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

  it('tightens a state folder, log and rotated log that an older version left readable by others, and says so', () => {
    const dir = join(tempDir(), 'state');
    const file = join(dir, 'host.log');
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    for (const f of [file, `${file}.1`]) {
      writeFileSync(f, 'old line\n');
      chmodSync(f, 0o644);
    }
    const log = createFileLog({ file });
    log.close();
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(`${file}.1`).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toMatch(/tightened the permissions of .*host\.log from 0644 to 0600/);
  });

  it('creates the state folder 0700 and the log 0600 under umask 022', () => {
    const dir = join(tempDir(), 'new-state');
    const file = join(dir, 'host.log');
    const previous = process.umask(0o022);
    try {
      createFileLog({ file, maxBytes: 4096 }).close();
      const log = createFileLog({ file, maxBytes: 4096 });
      for (let i = 0; i < 100; i++) log.log(`line ${i} ${'x'.repeat(60)}`);
      log.close();
    } finally {
      process.umask(previous);
    }
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(`${file}.1`).mode & 0o777).toBe(0o600);
  });

  it('never writes a secret value this process knows, whatever its shape', () => {
    const file = join(tempDir(), 'host.log');
    secrets.learn(['plain-looking-value-77']);
    const log = createFileLog({ file });
    log.log('backend said: bad credentials plain-looking-value-77');
    log.close();
    expect(readFileSync(file, 'utf8')).toContain('bad credentials ***');
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
    expect(redactSecrets('started pid 7: agent --api-key abc123 --model m')).toBe(
      'started pid 7: agent --api-key *** --model m',
    );
    expect(redactSecrets('agent --auth-token=xyz --password hunter2')).toBe('agent --auth-token=*** --password ***');
    expect(redactSecrets('agent --listen stdio')).toBe('agent --listen stdio');
  });

  it('masks the shapes the first redactor missed: --key, --auth=, mysql -p, Google and Slack keys, token=, *_KEY= and URL user-info', () => {
    const line = `agent --key k1 --auth=k2; mysql -p k3; AIza${'a'.repeat(35)} xoxb-12345-67890-abcdef token=k4 ANTHROPIC_KEY=k5 https://u:k6@h/v1`;
    const out = redactSecrets(line);
    for (const leaked of ['k1', 'k2', 'k3', 'a'.repeat(35), '67890-abcdef', 'k4', 'k5', 'u:k6'])
      expect(out).not.toContain(leaked);
  });
});
