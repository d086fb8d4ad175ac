import { fc, it as prop } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { MASK, Redactor, isSecretName, redactText, redactUrl, secretsInEnv, secretsInUrl } from './redact';

describe('redactText', () => {
  it('masks the values of secret flags, with a space or an equals sign', () => {
    expect(redactText('agent --key abc123 --model m')).toBe('agent --key *** --model m');
    expect(redactText('agent --auth=xyz --listen stdio')).toBe('agent --auth=*** --listen stdio');
    expect(redactText('agent --api-key "a b c" --password hunter2')).toBe('agent --api-key *** --password ***');
    expect(redactText('agent --max-tokens 100 --listen stdio')).toBe('agent --max-tokens 100 --listen stdio');
  });

  it('masks -p only after programs whose -p takes a password, so mkdir -p and ssh -p stay readable', () => {
    expect(redactText('mysql -u root -p hunter2 db')).toBe('mysql -u root -p *** db');
    expect(redactText('sshpass -p s3cret ssh host')).toBe('sshpass -p *** ssh host');
    expect(redactText('redis-cli -a topsecret ping')).toBe('redis-cli -a *** ping');
    expect(redactText('mkdir -p build && ssh -p 22 host')).toBe('mkdir -p build && ssh -p 22 host');
  });

  it('masks Google, Slack, OpenAI, GitHub and AWS keys wherever they appear', () => {
    const google = `AIza${'x'.repeat(35)}`;
    expect(redactText(`key is ${google}.`)).toBe('key is AIza***.');
    expect(redactText('xoxb-1234567890-abcdefghij')).toBe('xoxb-***');
    expect(redactText('sk-proj-abcdefghijklmnopqrstuvwx')).toBe('sk-***');
    expect(redactText('ghp_0123456789abcdefghijABCD github_pat_11ABCDEFG0123456789_abcdefghij')).toBe(
      'gh*_*** github_pat_***',
    );
    expect(redactText('AKIAIOSFODNN7EXAMPLE')).toBe('AKIA***');
  });

  it('masks secret assignments and query parameters but keeps ordinary ones', () => {
    expect(redactText('env OPENAI_API_KEY=abc ANTHROPIC_KEY=def PATH=/bin')).toBe(
      'env OPENAI_API_KEY=*** ANTHROPIC_KEY=*** PATH=/bin',
    );
    expect(redactText('token=abc and password="p w"')).toBe('token=*** and password=***');
    expect(redactText('GET /v1?api-key=K1&model=m&sig=S2&access_token=T3 200')).toBe(
      'GET /v1?api-key=***&model=m&sig=***&access_token=*** 200',
    );
    expect(redactText('exit code=1, max_tokens=5')).toBe('exit code=1, max_tokens=5');
  });

  it('masks URL user-info and bearer credentials, and JSON fields named like secrets', () => {
    expect(redactText('fetch https://user:pa55@host.example/v1 failed')).toBe(
      'fetch https://***@host.example/v1 failed',
    );
    expect(redactText('https://ghp_abc@github.com/o/r')).toBe('https://***@github.com/o/r');
    expect(redactText('Authorization: Bearer abc.def.ghi123')).toBe('Authorization: Bearer ***');
    expect(redactText('{"apiKey": "p\\"w", "model": "m"}')).toBe('{"apiKey": "***", "model": "m"}');
    expect(redactText('a basic understanding of bearer bonds')).toBe('a basic understanding of bearer bonds');
  });

  it('leaves ordinary text alone', () => {
    const text = 'backend vv exited with code 1; see https://example.com/docs?page=2#keys and git@github.com:o/r.git';
    expect(redactText(text)).toBe(text);
  });
});

describe('Redactor', () => {
  it('masks known values whatever their shape, but ignores values too short to be keys', () => {
    const r = new Redactor(['plainvalue42', 'abc', undefined]);
    expect(r.text('the server said: invalid key plainvalue42!')).toBe('the server said: invalid key ***!');
    expect(r.text('abc is fine')).toBe('abc is fine');
  });

  it('redacts the strings and secret-named fields of a message, keeping it valid JSON', () => {
    const r = new Redactor(['quote"inside-key']);
    const text = JSON.stringify({
      id: 1,
      result: { message: 'HTTP 401: bad key quote"inside-key', apiKey: 'zzz', n: 3 },
    });
    const out = r.json(text);
    expect(JSON.parse(out)).toEqual({ id: 1, result: { message: 'HTTP 401: bad key ***', apiKey: MASK, n: 3 } });
  });

  it('leaves a bare "key" field as it is (a keyboard key, an approval key) but masks apiKey beside it', () => {
    const r = new Redactor();
    const call = {
      method: 'item/tool/call',
      params: { tool: 'page_press', arguments: { key: 'Enter', apiKey: 'zzz' } },
    };
    expect(JSON.parse(r.json(JSON.stringify(call)))).toEqual({
      method: 'item/tool/call',
      params: { tool: 'page_press', arguments: { key: 'Enter', apiKey: MASK } },
    });
    expect(redactText('{"key": "Enter", "private_key": "abc"}')).toBe('{"key": "Enter", "private_key": "***"}');
    expect(redactText('curl https://maps.example/api?key=AIzaNotQuiteAKey --key sekrit1')).toBe(
      'curl https://maps.example/api?key=*** --key ***',
    );
  });

  it('returns a message with nothing secret-looking as the same string, without parsing it', () => {
    const r = new Redactor(['known-secret-1']);
    const text = '{"method":"item/agentMessage/delta","params":{"threadId":"t","delta":"Hello there, basic idea"}}';
    expect(r.json(text)).toBe(text);
    expect(r.mayHoldSecret(text)).toBe(false);
  });

  it('redacts a message nested 100,000 deep, which a recursive walk could not, keeping its bytes valid JSON', () => {
    const r = new Redactor(['known-secret-1']);
    const deep = `{"token":"abcdefgh","note":"known-secret-1","v":${'['.repeat(100_000)}"Bearer 12345678abc"${']'.repeat(100_000)}}`;
    const out = r.json(deep);
    expect(out.startsWith('{"token":"***","note":"***","v":[[')).toBe(true);
    expect(out).toContain('"Bearer ***"');
    expect(() => JSON.parse(out)).not.toThrow();
  });

  it('masks in JSON text what a line break or tab escaped as \\n, \\r or \\t sits next to (plain text masks it too)', () => {
    const r = new Redactor();
    const texts = [
      'line\nsk-abcdefghijklmnop1234',
      'Bearer\nabcdefgh12345678',
      'x\tghp_abcdefghijklmnopqrstuvwxyz12',
      '{"api_key":\n"hunter2hunter2"}',
      'Authorization\n: token abcdef123456',
      'done\r\nmysql -u root -phunter2hunter2',
    ];
    for (const text of texts) {
      expect(r.text(text)).not.toBe(text);
      expect(JSON.parse(r.json(JSON.stringify({ text })))).toEqual({ text: r.text(text) });
    }
  });

  it('keeps a __proto__ field of a message a plain field', () => {
    const r = new Redactor();
    const out = r.json('{"__proto__":{"token":"abc"},"x":"token=1"}');
    expect(JSON.parse(out)).toEqual(JSON.parse('{"__proto__":{"token":"***"},"x":"token=***"}'));
  });

  it('masks a known value in text that is not JSON, but never right after a backslash', () => {
    const r = new Redactor(['nsecretvalue']);
    expect(r.json('not json nsecretvalue')).toBe('not json ***');
    expect(r.json('{"a":"x\\nsecretvalue"}')).toBe('{"a":"x\\nsecretvalue"}');
  });

  prop.prop([fc.string({ minLength: 8, maxLength: 40 }), fc.jsonValue()])(
    'never lets a known value through json(), and always returns valid JSON',
    (secret, value) => {
      fc.pre(secret.trim() === secret && !secret.includes('\\'));
      const r = new Redactor([secret]);
      const text = JSON.stringify({ before: value, message: `key: ${secret}`, [`k${secret}`]: [secret] });
      const out = r.json(text);
      expect(() => JSON.parse(out)).not.toThrow();
      expect(JSON.stringify(JSON.parse(out))).not.toContain(JSON.stringify(secret).slice(1, -1));
    },
  );
});

describe('secrets of an environment and of a URL', () => {
  it('takes secret-named variables and URL credentials, not paths or ordinary settings', () => {
    const env = {
      OPENAI_API_KEY: 'sk-live-1',
      GITHUB_TOKEN: 'ghtok',
      DB_PASSWORD_FILE_X: 'pw',
      SSH_AUTH_SOCK: '/tmp/ssh/agent.1',
      HOME: '/home/me',
      TETHER_OPENAI_BASE_URL: 'https://u:p4ss@h/v1?api-key=QK',
    };
    expect(secretsInEnv(env)).toEqual(expect.arrayContaining(['sk-live-1', 'ghtok', 'pw', 'p4ss', 'QK']));
    expect(secretsInEnv(env)).not.toContain('/home/me');
    expect(secretsInEnv(env)).not.toContain('/tmp/ssh/agent.1');
  });

  it('finds and masks user-info and secret query values of a URL', () => {
    expect(secretsInUrl('https://user:pass%20word@host/v1?api-key=K&x=1')).toEqual(
      expect.arrayContaining(['user', 'pass word', 'pass%20word', 'K']),
    );
    expect(redactUrl('https://user:pass@host/v1?api-key=K&x=1')).toBe('https://***@host/v1?api-key=***&x=1');
  });

  it('names secrets by their parts, not by substrings', () => {
    expect(
      ['OPENAI_API_KEY', 'apiKey', 'x-api-key', 'access_token', 'dbPassword', 'client_secret', 'sig'].every(
        isSecretName,
      ),
    ).toBe(true);
    expect(['monkey', 'keyboard', 'max_tokens', 'author', 'PATH'].some(isSecretName)).toBe(false);
  });
});
