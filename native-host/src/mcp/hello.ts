/**
 * The first line on Tether's MCP socket: `tether mcp` sends `{"hello":{"token":"..."}}` and a newline, the host
 * answers one line, `{"ok":{...}}` or `{"error":{"message":"..."}}`, and from then on the socket carries MCP's
 * newline-delimited JSON both ways. Anyone of this user can connect, so the hello is read as untrusted bytes: at most
 * MAX_HELLO_BYTES, one JSON object, the fields checked.
 */

/** Longest hello line (a token is 43 characters; the rest is room for fields added later). */
export const MAX_HELLO_BYTES = 4096;

/** What a client says first. */
export interface Hello {
  readonly token: string;
}

/** What the host says about itself when it accepts. */
export interface HelloAccepted {
  readonly browser: string;
  readonly pid: number;
}

/** The hello line for `token` (newline included). */
export function helloLine(hello: Hello): string {
  return `${JSON.stringify({ hello: { token: hello.token } })}\n`;
}

/** The answer line (newline included). */
export function answerLine(answer: { ok: HelloAccepted } | { error: { message: string } }): string {
  return `${JSON.stringify(answer)}\n`;
}

/** A first line that cannot be a hello (or an answer); says what is wrong with it. */
export class HelloError extends Error {
  override name = 'HelloError';
}

/** Gathers bytes up to the first newline; what follows it belongs to MCP. */
export class FirstLine {
  private readonly parts: Buffer[] = [];
  private length = 0;

  /** Adds `chunk`: the line and the bytes after it once a newline came, else undefined; throws past `max` bytes. */
  push(chunk: Buffer, max = MAX_HELLO_BYTES): { line: string; rest: Buffer } | undefined {
    const newline = chunk.indexOf(0x0a);
    const take = newline < 0 ? chunk.length : newline;
    if (this.length + take > max) throw new HelloError(`the first line is longer than ${max} bytes`);
    this.parts.push(chunk.subarray(0, take));
    this.length += take;
    if (newline < 0) return undefined;
    return { line: Buffer.concat(this.parts, this.length).toString('utf8'), rest: chunk.subarray(newline + 1) };
  }
}

function objectField(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? Object.getOwnPropertyDescriptor(value, key)?.value
    : undefined;
}

function parseObject(line: string, what: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    throw new HelloError(`the ${what} is not JSON`);
  }
}

/** Reads a hello line; throws HelloError when it is none. */
export function parseHello(line: string): Hello {
  const hello = objectField(parseObject(line, 'hello'), 'hello');
  const token = objectField(hello, 'token');
  if (typeof token !== 'string' || token.length === 0 || token.length > 256) {
    throw new HelloError('the hello has no token');
  }
  return { token };
}

/** Reads the host's answer line; throws HelloError when it is none. */
export function parseAnswer(line: string): { ok: HelloAccepted } | { error: { message: string } } {
  const value = parseObject(line, "host's answer");
  const ok = objectField(value, 'ok');
  if (ok !== undefined) {
    const browser = objectField(ok, 'browser');
    const pid = objectField(ok, 'pid');
    if (typeof browser === 'string' && typeof pid === 'number') return { ok: { browser, pid } };
  }
  const message = objectField(objectField(value, 'error'), 'message');
  if (typeof message === 'string') return { error: { message } };
  throw new HelloError("the host's answer is neither ok nor an error");
}
