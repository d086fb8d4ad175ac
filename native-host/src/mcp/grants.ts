/**
 * Who may call the page tools over MCP: one bearer token per grant (a thread of a launched agent, or the external
 * clients of one host). Tokens are 32 random bytes, looked up by their SHA-256 (so no comparison runs over the secret
 * itself) and confirmed with a constant-time compare; every token is taught to the process's redactor before it is
 * handed out, so no log line, journal or frame can carry it.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ClientTool, ToolCallResult } from '@tether/protocol';
import { secrets } from '../secrets';

/** Who calls: the client's own name and version (a claim, empty when it gave none) and its MCP connection. */
export interface McpCaller {
  readonly name: string;
  readonly version: string;
  /** Identifies one MCP connection (random, never reused): grants to a client are kept per connection. */
  readonly connection: string;
}

/** What a token lets its holder do. */
export interface McpGrant {
  /** For logs: whose token it is (never the token). */
  readonly label: string;
  /** The tools it may list and call (the extension's client tools as they are now). */
  tools(): readonly ClientTool[];
  /**
   * Runs `tool` the way the extension runs client tools (its approval and site rules). `signal` aborts, with a
   * ToolCallCancelReason as its reason, when the caller stops waiting: the call is then withdrawn in the browser.
   */
  call(tool: string, args: unknown, caller: McpCaller, signal: AbortSignal): Promise<ToolCallResult>;
  /** An MCP session with this grant's token initialized; the returned function is called when it closes. */
  opened?(caller: McpCaller): () => void;
  /** Aborts when the sessions of this grant must end (their browser left): the socket then closes them. */
  readonly ended?: AbortSignal;
}

/** A token handed out, and the means to take it back. */
export interface IssuedToken {
  /** The bearer token: base64url, 43 characters. Never put it in argv, a URL or a log line. */
  readonly token: string;
  /** Refuses the token from now on (calls in flight finish). */
  revoke(): void;
}

interface Entry {
  readonly digest: Buffer;
  readonly grant: McpGrant;
}

function digestOf(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** The grants of one host, by token. */
export class McpGrants {
  private readonly byDigest = new Map<string, Entry>();

  /** Issues a fresh token for `grant`. */
  issue(grant: McpGrant): IssuedToken {
    const token = randomBytes(32).toString('base64url');
    secrets.learn([token]);
    const digest = digestOf(token);
    const key = digest.toString('hex');
    this.byDigest.set(key, { digest, grant });
    return {
      token,
      revoke: () => {
        if (this.byDigest.get(key)?.grant === grant) this.byDigest.delete(key);
      },
    };
  }

  /** The grant of `token`, or undefined for a token this host never issued or has revoked. */
  find(token: string | undefined): McpGrant | undefined {
    if (!token || token.length > 256) return undefined;
    const digest = digestOf(token);
    const entry = this.byDigest.get(digest.toString('hex'));
    return entry && timingSafeEqual(entry.digest, digest) ? entry.grant : undefined;
  }

  /** How many tokens are valid now. */
  get size(): number {
    return this.byDigest.size;
  }
}
