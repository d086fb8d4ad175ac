/**
 * `tether mcp` as a small MCP proxy: an SDK Server towards the client on stdio and, once a host is reached, an SDK
 * Client towards it over the host's socket (past the hello line). It answers `initialize` and `tools/list` with or
 * without a host (the tool list the last host saved, tool-cache.ts), answers a `tools/call` it cannot forward with a
 * tool error saying what to do, and reaches a host that appears later without the client restarting, telling the client
 * (`notifications/tools/list_changed`) when the host's tools differ from those it listed. A call the client cancels is
 * cancelled towards the host with the SDK's `notifications/cancelled`; when the client goes away the host's connection
 * closes, so the browser withdraws what the caller no longer waits for. stdout carries MCP only; people read stderr.
 */
import type { Readable, Writable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  ListToolsRequestSchema,
  ListToolsResultSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '@tether/protocol/errors';
import { TETHER_VERSION } from '../version';
import { announcements, type GreetedHost, type HostQuery, NOT_RUNNING, reachHost } from './host-link';
import { SOCKET_ENV } from './hub';
import { INSTRUCTIONS } from './server';
import { readToolCache } from './tool-cache';
import { mcpError } from './tools';

/** Largest MCP message read from the host (page text and screenshots come this way). */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
/** The client owns a call's timeout (it cancels when it gives up); the proxy waits as long as setTimeout allows. */
const NO_TIMEOUT_MS = 2 ** 31 - 1;
/** How often the runtime folder is read for a host while none is connected (a readdir: cheap). */
const WATCH_MS = 1000;
/** How long closing waits for a host being reached, so that its outcome reaches stderr. */
const CLOSE_WAIT_MS = 3000;

/** Options of runProxy. */
export interface ProxyOptions extends HostQuery {
  readonly input: Readable;
  readonly output: Writable;
  /** One line for people (stderr). */
  readonly log: (line: string) => void;
  /** The tool list the last host saved (toolCacheFile()). */
  readonly toolCache: string;
  /** How often to look for a host while none is connected (default 1 s). */
  readonly watchMs?: number;
}

interface Upstream {
  readonly client: Client;
  readonly host: GreetedHost;
}

/**
 * Serves MCP on `input`/`output` until the client closes `input`. Resolves with 0 when it reached a host (or the last
 * attempt did not fail), 1 when it never could.
 */
export async function runProxy(options: ProxyOptions): Promise<number> {
  const { log } = options;
  const server = new Server(
    { name: 'tether', title: 'Tether browser tools', version: TETHER_VERSION },
    { capabilities: { tools: { listChanged: true } }, instructions: INSTRUCTIONS },
  );
  let upstream: Upstream | undefined;
  let connecting: Promise<Upstream | undefined> | undefined;
  let failure: string | undefined;
  let reached = false;
  let closing = false;
  /** The tools the client was last given, as JSON, to know whether a host's list is news to it. */
  let served: string | undefined;
  /** Looks for a host while none is connected; `seen` is the runtime folder's announcements it last saw. */
  let watcher: NodeJS.Timeout | undefined;
  let seen = '';
  // Reaching a host starts at once (its outcome goes to stderr); the MCP handshake waits for the client's name.
  let early: Promise<GreetedHost> | undefined = reachHost(options);
  early.catch(() => undefined);

  const cachedTools = (): Tool[] => {
    const parsed = ListToolsResultSchema.safeParse(readToolCache(options.toolCache));
    return parsed.success ? parsed.data.tools : [];
  };

  const attempt = async (retry = true): Promise<Upstream | undefined> => {
    const fromStart = early !== undefined;
    let host: GreetedHost;
    try {
      host = await (early ?? reachHost(options));
    } catch (error) {
      const message = errorMessage(error);
      if (message !== failure) log(message);
      failure = message;
      return undefined;
    } finally {
      early = undefined;
    }
    const { socket } = host;
    const client = new Client(server.getClientVersion() ?? { name: 'an unnamed MCP client', version: '' });
    // The SDK's stdio transport reads and writes any pair of streams: here both are the socket.
    const transport = new StdioServerTransport(socket, socket, { maxBufferSize: MAX_MESSAGE_BYTES });
    if (host.rest.length > 0) socket.unshift(host.rest);
    socket.once('close', () => {
      void client.close();
      if (upstream?.client !== client) return;
      upstream = undefined;
      if (closing) return;
      failure = `${NOT_RUNNING} (The browser closed its Tether host.)`;
      log('the Tether host closed the connection; waiting for the browser to start one');
      watch();
    });
    try {
      const handshake = client.connect(transport, { timeout: 10_000 });
      socket.resume();
      await handshake;
    } catch (error) {
      socket.destroy();
      // The host greeted at start may have gone since: reach the one running now.
      if (fromStart && retry) return attempt(false);
      failure = `The Tether host did not complete MCP's handshake: ${errorMessage(error)}. Call the tool again.`;
      log(failure);
      return undefined;
    }
    if (closing) {
      socket.destroy();
      return undefined;
    }
    log(host.note);
    reached = true;
    failure = undefined;
    upstream = { client, host };
    clearInterval(watcher);
    watcher = undefined;
    void tell(upstream);
    return upstream;
  };

  const connected = (): Promise<Upstream | undefined> => {
    if (upstream || closing) return Promise.resolve(upstream);
    connecting ??= attempt().finally(() => (connecting = undefined));
    return connecting;
  };

  const listTools = async (up: Upstream, params: unknown, options?: RequestOptions): Promise<Tool[]> => {
    const result = await up.client.request(
      { method: 'tools/list', params: params ?? {} },
      ListToolsResultSchema,
      options,
    );
    return result.tools;
  };

  // A host that appears (or comes back) may list other tools than those the client has: tell it.
  const tell = async (up: Upstream): Promise<void> => {
    if (served === undefined) return;
    const tools = await listTools(up, {}).catch(() => undefined);
    if (tools && JSON.stringify(tools) !== served) {
      served = JSON.stringify(tools);
      await server.sendToolListChanged().catch(() => undefined);
    }
  };

  // Only the runtime folder can announce a new host; a socket named by the host that started this agent cannot return.
  function watch(): void {
    if (watcher || closing || options.env[SOCKET_ENV]) return;
    seen = announcements(options.dir);
    watcher = setInterval(() => {
      const now = announcements(options.dir);
      if (now === seen) return;
      seen = now;
      if (now === '') return;
      void connected();
    }, options.watchMs ?? WATCH_MS);
  }

  server.oninitialized = () => {
    void connected().then((up) => (up ? undefined : watch()));
  };

  server.setRequestHandler(ListToolsRequestSchema, async (request, extra) => {
    const up = await connected();
    if (up) {
      try {
        const tools = await listTools(up, request.params, { signal: extra.signal });
        served = JSON.stringify(tools);
        return { tools };
      } catch (error) {
        log(`the Tether host did not list its tools: ${errorMessage(error)}`);
      }
    }
    const tools = cachedTools();
    served = JSON.stringify(tools);
    return { tools };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const up = await connected();
    if (!up) return mcpError(failure ?? NOT_RUNNING);
    const progressToken = request.params._meta?.progressToken;
    try {
      return await up.client.request({ method: 'tools/call', params: request.params }, CallToolResultSchema, {
        signal: extra.signal,
        timeout: NO_TIMEOUT_MS,
        ...(progressToken === undefined
          ? {}
          : {
              onprogress: (progress) =>
                void extra
                  .sendNotification({ method: 'notifications/progress', params: { ...progress, progressToken } })
                  .catch(() => undefined),
            }),
      });
    } catch (error) {
      // A call the client cancelled gets no answer (the SDK drops it); any other ended with the host's connection.
      return mcpError(
        `Tether lost the browser before ${request.params.name} finished (${errorMessage(error)}). ${NOT_RUNNING}`,
      );
    }
  });

  await server.connect(new StdioServerTransport(options.input, options.output));
  await new Promise<void>((resolve) => {
    const done = (): void => resolve();
    options.input.once('end', done);
    options.input.once('close', done);
    // A client that died leaves EPIPE on every later write: keep listening so none of them throws.
    options.output.on('error', done);
  });
  closing = true;
  clearInterval(watcher);
  // Let a host being reached say who it is (or why not) before leaving.
  const outcome = connecting
    ? connecting.then(() => undefined)
    : early?.then(
        (host) => {
          host.socket.destroy();
          log(host.note);
          reached = true;
        },
        (error: unknown) => {
          failure = errorMessage(error);
          log(failure);
        },
      );
  if (outcome) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([outcome, new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)))]);
    clearTimeout(timer);
  }
  // The host sees its connection close, so every call still waiting there is withdrawn as disconnected.
  const last = upstream;
  upstream = undefined;
  if (last) {
    await last.client.close().catch(() => undefined);
    last.host.socket.end();
  }
  await server.close().catch(() => undefined);
  return reached || failure === undefined ? 0 : 1;
}
