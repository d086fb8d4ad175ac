/**
 * MCP over streamable HTTP on 127.0.0.1, for agents that take an HTTP MCP server (Copilot takes only this form over
 * ACP). Every request is checked here before the SDK's transport sees it, because SDK 1.32.2 accepts a forged Host and
 * any Origin by default: an `Origin` header (a web page; agents send none) is refused 403, a Host other than
 * 127.0.0.1:PORT or localhost:PORT (DNS rebinding) 403, a missing or unknown bearer token 401. A session belongs to the
 * token that opened it: another token cannot use or close it.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { errorMessage } from '@tether/protocol/errors';
import type { McpGrant, McpGrants } from './grants';
import { serveMcp } from './server';

/** The path the endpoint serves. */
export const MCP_HTTP_PATH = '/mcp';

interface Session {
  readonly grant: McpGrant;
  readonly transport: StreamableHTTPServerTransport;
}

/** A listening HTTP endpoint. */
export interface McpHttpEndpoint {
  /** `http://127.0.0.1:PORT/mcp` (no token: it goes in the Authorization header). */
  readonly url: string;
  close(): Promise<void>;
}

/** Why a request is refused before MCP, or undefined when it may pass. */
export function refusal(
  headers: IncomingMessage['headers'],
  port: number,
): { status: 403; message: string } | undefined {
  if (headers.origin !== undefined) {
    return { status: 403, message: 'Requests from web pages (with an Origin header) are refused.' };
  }
  const host = headers.host;
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) {
    return { status: 403, message: `Host must be 127.0.0.1:${port} or localhost:${port}.` };
  }
  return undefined;
}

/** The bearer token of an Authorization header, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer ([A-Za-z0-9_-]{1,256})$/.exec(header ?? '');
  return match?.[1];
}

/** Starts the endpoint on 127.0.0.1, on a port the system picks. */
export function startHttpEndpoint(grants: McpGrants, log: (line: string) => void): Promise<McpHttpEndpoint> {
  const sessions = new Map<string, Session>();
  let port = 0;
  const server: Server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      log(`mcp http: ${errorMessage(error)}`);
      if (!res.headersSent) plain(res, 500, 'Internal error.');
    });
  });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const refused = refusal(req.headers, port);
    if (refused) {
      log(`mcp http: refused a request: ${refused.message}`);
      plain(res, refused.status, refused.message);
      return;
    }
    if ((req.url ?? '').split('?')[0] !== MCP_HTTP_PATH) {
      plain(res, 404, `Not found: the MCP endpoint is ${MCP_HTTP_PATH}.`);
      return;
    }
    const grant = grants.find(bearerToken(req.headers.authorization));
    if (!grant) {
      // No WWW-Authenticate: there is no OAuth to discover, the token comes with the server's entry.
      plain(res, 401, 'Unauthorized: this endpoint needs the bearer token Tether gave with its address.');
      return;
    }
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = sessions.get(sessionId);
      if (!session || session.grant !== grant) {
        plain(res, 404, 'Unknown MCP session: initialize again.');
        return;
      }
      await session.transport.handleRequest(req, res);
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { grant, transport });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    const mcp = await serveMcp(grant, transport, log);
    await transport.handleRequest(req, res);
    // A first request that did not initialize (Copilot probes `server/discover`) leaves no session behind.
    if (!transport.sessionId) await mcp.close();
  };

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      port = (server.address() as AddressInfo).port;
      resolve({
        url: `http://127.0.0.1:${port}${MCP_HTTP_PATH}`,
        close: async () => {
          for (const session of sessions.values()) await session.transport.close().catch(() => undefined);
          sessions.clear();
          server.closeAllConnections();
          await new Promise<void>((done) => server.close(() => done()));
        },
      });
    });
  });
}

function plain(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(`${message}\n`);
}
