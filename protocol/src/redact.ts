/**
 * The one secret masker of Tether: the host's log, its journals, every frame it sends to the browser and everything
 * the extension stores go through it. It masks well-known key shapes (`sk-...`, `AIza...`, `xoxb-...`, `ghp_...`),
 * `Bearer X`, URL user-info, secret-named query parameters, assignments, flags and JSON fields, and every value the
 * process knows to be secret (from the config and the environment) wherever it appears, whatever its shape.
 * Pure string work: runs unchanged in Node and in the service worker.
 */

/** What a secret is replaced with. */
export const MASK = '***';

/** Known secret values shorter than this are not masked: a 1-character value would mask every occurrence of a letter. */
export const MIN_KNOWN_SECRET_LENGTH = 8;

/** Name parts that make a variable, field, flag or query parameter secret (`OPENAI_API_KEY`, `apiKey`, `--auth-token`). */
const SECRET_WORDS = new Set([
  'key',
  'apikey',
  'token',
  'secret',
  'password',
  'passwd',
  'passphrase',
  'pwd',
  'pass',
  'auth',
  'authorization',
  'credential',
  'credentials',
  'cookie',
  'sig',
  'signature',
  'pat',
  'privatekey',
]);

/** True when a name (`OPENAI_API_KEY`, `apiKey`, `x-api-key`, `access_token`, `dbPassword`) names a secret. */
export function isSecretName(name: string): boolean {
  const lower = name.toLowerCase();
  if (lower.includes('password') || lower.includes('passwd') || lower.includes('secret')) return true;
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  return words.some((w) => SECRET_WORDS.has(w));
}

/**
 * True when a JSON field's string value is secret by its name. A bare `key` is not: as a field it names a keyboard
 * key (`page_press {key: "Enter"}`), an approval or a map entry far more often than a credential, and masking it
 * would change what tools receive and what cards show; `apiKey`, `api_key` and `privateKey` still are. (As a query
 * parameter, an assignment or a flag, `key` stays secret: `?key=AIza...`, `--key X`.)
 */
export function isSecretField(name: string): boolean {
  return name.toLowerCase() !== 'key' && isSecretName(name);
}

/** Programs whose short flag takes a password: `mysql -p X`, `sshpass -p X`, `redis-cli -a X`, `zip -P X`. */
const PASSWORD_FLAG_PROGRAMS: ReadonlyArray<[programs: string, flag: string]> = [
  [
    'mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mysqlcheck|mariadb|mariadb-dump|sshpass|' +
      'mongo|mongosh|mongodump|mongorestore|mongoexport|mongoimport',
    'p',
  ],
  ['redis-cli', 'a'],
  ['zip|unzip|7z|7za', 'P|p'],
];

type Replacer = (match: string, ...groups: string[]) => string;

/** Text patterns, applied in order. Each keeps what says what was masked (`Bearer `, `api-key=`) and masks the value. */
const PATTERNS: ReadonlyArray<[RegExp, string | Replacer]> = [
  [
    /-----BEGIN ([A-Z ]*)PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
    '-----BEGIN $1PRIVATE KEY----- *** -----END $1PRIVATE KEY-----',
  ],
  // User-info of any URL: `https://user:pass@host`, `https://TOKEN@github.com`.
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>\\]+@/gi, `$1${MASK}@`],
  // Query parameters: `?api-key=X`, `&sig=X`, `&access_token=X`.
  [
    /([?&])([^=&#\s"'<>\\]+)=([^&#\s"'<>\\]+)/g,
    (m, sep: string, name: string) => (isSecretName(name) ? `${sep}${name}=${MASK}` : m),
  ],
  // Assignments: `OPENAI_API_KEY=X`, `token=X`, `password="X"` (not `--flag=X`: see flags).
  [
    /(^|[^A-Za-z0-9_.?&\\-])([A-Za-z_][A-Za-z0-9_.]*)=("[^"]*"|'[^']*'|[^\s"'`]+)/g,
    (m, lead: string, name: string) => (isSecretName(name) ? `${lead}${name}=${MASK}` : m),
  ],
  // Long flags: `--key X`, `--auth=X`, `--api-key X`, `-password X`.
  [
    /(^|[\s"'])(--?[A-Za-z][A-Za-z0-9_-]*)(=|\s+)("[^"]*"|'[^']*'|[^\s"'-][^\s"']*)/g,
    (m, lead: string, flag: string, sep: string) =>
      flag.length > 2 && isSecretName(flag.replace(/^-+/, '')) ? `${lead}${flag}${sep}${MASK}` : m,
  ],
  ...PASSWORD_FLAG_PROGRAMS.map(([programs, flag]): [RegExp, string] => [
    new RegExp(`(\\b(?:${programs})\\b[^\\n|;&]*?\\s-(?:${flag}))(\\s*)("[^"]*"|'[^']*'|[^\\s"'-][^\\s"']*)`, 'g'),
    `$1$2${MASK}`,
  ]),
  // HTTP headers written out: `Authorization: token X`, `x-api-key: X`, `Cookie: a=b`.
  [
    /\b((?:proxy-)?authorization|x-api-key|api-key|x-auth-token|x-goog-api-key|cookie|set-cookie)(\s*:\s*)(?:(bearer|basic|token|bot)\s+)?[^\s"',;][^\r\n"',]*/gi,
    (_m, name: string, sep: string, scheme?: string) => `${name}${sep}${scheme ? `${scheme} ` : ''}${MASK}`,
  ],
  // A credential has a digit or `+/=` somewhere: "a basic understanding" is prose.
  [/\b(Bearer|Basic|bearer|basic)\s+(?=[A-Za-z0-9._~+/=-]*[0-9+/=])[A-Za-z0-9._~+/=-]{8,}/g, `$1 ${MASK}`],
  // JSON fields inside text: `{"api_key": "X"}`.
  [
    /("([A-Za-z0-9_-]*)"\s*:\s*)"(?:[^"\\]|\\.)*"/g,
    (m, lead: string, name: string) => (isSecretField(name) ? `${lead}"${MASK}"` : m),
  ],
  // Well-known key shapes, wherever they are.
  [/\b(sk|pk|rk)-[A-Za-z0-9_-]{16,}/g, `$1-${MASK}`],
  [/\bgithub_pat_[A-Za-z0-9_]{20,}/g, `github_pat_${MASK}`],
  [/\bgh[pousr]_[A-Za-z0-9]{20,}/g, `gh*_${MASK}`],
  [/\bglpat-[A-Za-z0-9_-]{20,}/g, `glpat-${MASK}`],
  [/\bAKIA[0-9A-Z]{16}\b/g, `AKIA${MASK}`],
  [/\bAIza[0-9A-Za-z_-]{35}/g, `AIza${MASK}`],
  [/\bxox([abposr])-[A-Za-z0-9-]{10,}/g, `xox$1-${MASK}`],
  [/\bhf_[A-Za-z0-9]{30,}/g, `hf_${MASK}`],
  [/\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, `eyJ${MASK}`],
];

/** Whitespace as plain text has it, or as JSON text escapes it (`\n`, `\r`, `\t`): `Bearer\nX` in a message. */
const SP = String.raw`(?:\s|\\[nrt])`;
/** A word's start, in plain text or right after such an escape (`\nsk-...` in JSON text has no `\b` before `sk`). */
const B = String.raw`(?:\b|(?<=\\[nrt]))`;
/**
 * A superset of PATTERNS that also matches their JSON-escaped form, tested once per message on the hot path: a
 * message it does not match (nearly every streamed delta) is sent as it is, without a parse.
 */
const SUSPECT = new RegExp(
  [
    'PRIVATE KEY-----',
    ':\\/\\/[^\\s/?#@"\'<>]+@',
    `(?:key|token|secret|pass|pwd|auth|sig|credential|cookie|pat)[A-Za-z0-9_.-]*(?:=|\\\\?"${SP}*:${SP}*\\\\?")`,
    '-(?:key|token|secret|pass|pwd|auth|sig|credential|cookie|pat|[a-z0-9_-]*(?:key|token|secret|pass|auth))',
    `${B}(?:${PASSWORD_FLAG_PROGRAMS.map(([p]) => p).join('|')}|redis-cli)\\b`,
    `(?:authorization|api-key|auth-token|cookie)\\\\?"?${SP}*:`,
    `${B}(?:bearer|basic)${SP}+[A-Za-z0-9._~+/=-]*[0-9+/=]`,
    `${B}(?:sk|pk|rk)-[A-Za-z0-9_-]{16}`,
    `github_pat_|glpat-|${B}gh[pousr]_[A-Za-z0-9]{20}|${B}AKIA[0-9A-Z]{16}|${B}AIza[0-9A-Za-z_-]{35}`,
    `${B}xox[abposr]-|${B}hf_[A-Za-z0-9]{30}|${B}eyJ[A-Za-z0-9_-]{8,}\\.eyJ`,
  ].join('|'),
  'i',
);

/** A JSON string literal (in a message's text). */
const STRING_LITERAL = /"(?:[^"\\\n]|\\.)*"/g;
/** What follows an object key: a colon. */
const AFTER_KEY = /\s*:/y;
/** What lies between a key and its string value. */
const BEFORE_VALUE = /^\s*:\s*$/;

/** Masks well-known secret shapes and secret-named values in `text` (no known values: see Redactor for those). */
export function redactText(text: string): string {
  let out = text;
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement as string);
  return out;
}

/** Secret values in an environment: values of secret-named variables, and user-info and secret query values of URLs. */
export function secretsInEnv(env: Readonly<Record<string, string | undefined>>): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (!value) continue;
    if (isSecretName(name) && !/^(?:\/|~\/|\.\/)/.test(value)) out.push(value);
    if (value.includes('://')) out.push(...secretsInUrl(value));
  }
  return out;
}

/** The user-info (whole, user and password) and the values of secret-named query parameters of a URL. */
export function secretsInUrl(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const out: string[] = [];
  if (parsed.username) out.push(decodeURIComponent(parsed.username), parsed.username);
  if (parsed.password)
    out.push(decodeURIComponent(parsed.password), parsed.password, `${parsed.username}:${parsed.password}`);
  parsed.searchParams.forEach((value, name) => {
    if (isSecretName(name) && value) out.push(value, encodeURIComponent(value));
  });
  return out;
}

/** A URL fit to show: user-info and secret query values masked (`https://***@host/v1?api-key=***`). */
export function redactUrl(url: string): string {
  return redactText(url);
}

/** A known secret as it appears in JSON text, when that differs from the value itself. */
function jsonForm(value: string): string {
  return JSON.stringify(value).slice(1, -1);
}

/**
 * Patterns plus the secret values this process knows. Values are only ever added: a key learned anywhere (config,
 * environment, model settings) must be masked by every writer from then on.
 */
export class Redactor {
  private values: string[] = [];
  private forms: string[] = [];
  private version = 0;

  constructor(known: Iterable<string | undefined> = []) {
    this.learn(known);
  }

  /** Adds secret values; values shorter than MIN_KNOWN_SECRET_LENGTH, or already known, are ignored. */
  learn(known: Iterable<string | undefined>): void {
    let added = false;
    for (const raw of known) {
      const value = raw?.trim();
      if (!value || value.length < MIN_KNOWN_SECRET_LENGTH || this.values.includes(value)) continue;
      this.values.push(value);
      added = true;
    }
    if (!added) return;
    // Longest first, so a key that contains another known value is masked whole.
    this.values.sort((a, b) => b.length - a.length);
    this.forms = [...new Set(this.values.flatMap((v) => [v, jsonForm(v)]))].sort((a, b) => b.length - a.length);
    this.version++;
  }

  /** Every known value and its JSON-escaped form (what to look for in raw JSON bytes), longest first. */
  get needles(): readonly string[] {
    return this.forms;
  }

  /** Grows by one each time a value is learned (so callers can cache what they derive from `needles`). */
  get generation(): number {
    return this.version;
  }

  /** Masks known values, then patterns, in plain text (a log line, one string of a message). */
  text(text: string): string {
    let out = text;
    for (const value of this.values) if (out.includes(value)) out = out.split(value).join(MASK);
    return redactText(out);
  }

  /**
   * Redacts the JSON text of one message (or batch): unchanged (the same string) when nothing in it can be a secret,
   * which is the common case and costs one regular-expression test. Otherwise its string literals are redacted in
   * place, and the string value of a secret-named field is masked. A scan of the literals rather than a parse and a
   * walk: linear at any nesting depth (a 100,000-deep value, which JSON.parse accepts, overflows a recursive walk and
   * JSON.stringify), and everything that is not a string keeps its bytes. Text that is not JSON gets the same.
   */
  json(text: string): string {
    if (!this.mayHoldSecret(text)) return text;
    let out = '';
    let copied = 0;
    // Where the last key named like a secret ended: a string right after its colon is that secret's value.
    let secretKeyEnd = -1;
    for (const match of text.matchAll(STRING_LITERAL)) {
      const literal = match[0];
      const start = match.index;
      const end = start + literal.length;
      let decoded: unknown;
      try {
        decoded = JSON.parse(literal);
      } catch {
        // Not a JSON string (a bad escape): its known values are still masked below.
      }
      if (typeof decoded !== 'string') continue;
      AFTER_KEY.lastIndex = end;
      const isKey = AFTER_KEY.test(text);
      let replacement: string;
      if (isKey) {
        replacement = this.text(decoded);
        secretKeyEnd = isSecretField(decoded) ? end : -1;
      } else {
        const isSecretValue = secretKeyEnd >= 0 && decoded !== '' && BEFORE_VALUE.test(text.slice(secretKeyEnd, start));
        replacement = isSecretValue ? MASK : this.text(decoded);
        secretKeyEnd = -1;
      }
      if (replacement === decoded) continue;
      out += text.slice(copied, start) + JSON.stringify(replacement);
      copied = end;
    }
    return this.maskForms(out + text.slice(copied));
  }

  /** True when `text` (plain or JSON) may hold something `text()` or `json()` would mask. */
  mayHoldSecret(text: string): boolean {
    if (SUSPECT.test(text)) return true;
    for (const form of this.forms) if (text.includes(form)) return true;
    return false;
  }

  /** Masks known values in JSON text, skipping an occurrence whose first character is escaped (`\n` + `abc...`). */
  private maskForms(text: string): string {
    let out = text;
    for (const form of this.forms) {
      let at = out.indexOf(form);
      while (at >= 0) {
        let slashes = 0;
        while (at - slashes - 1 >= 0 && out[at - slashes - 1] === '\\') slashes++;
        if (slashes % 2 === 0) {
          out = out.slice(0, at) + MASK + out.slice(at + form.length);
          at = out.indexOf(form, at + MASK.length);
        } else at = out.indexOf(form, at + 1);
      }
    }
    return out;
  }
}
