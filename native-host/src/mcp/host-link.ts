/**
 * How `tether mcp` reaches a host: it picks one (the socket `TETHER_MCP_SOCKET` names for an agent the host started,
 * else the most recent host announced in the runtime folder, or the one `--browser` names), says hello with a token
 * from `TETHER_MCP_TOKEN` or that host's 0600 token file (never argv), and hands over the socket, which carries MCP
 * from then on. Every failure is a sentence for the user: it ends up as a tool error the client shows its model.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { errorMessage } from '@tether/protocol/errors';
import { FirstLine, type HelloAccepted, helloLine, parseAnswer } from './hello';
import { type HostAnnouncement, liveHosts, socketAnswers } from './host-registry';
import { SOCKET_ENV, TOKEN_ENV } from './hub';
import { ANNOUNCEMENT_FILE, RUNTIME_DIR_ENV } from './runtime-dir';

/** What a call answers while no host can be reached: what the user does about it. */
export const NOT_RUNNING =
  'Tether is not running: open your browser with Tether and share a tab ("Share this tab with external agents" in ' +
  'the Tether side panel of that tab), then call the tool again.';

/** Where to look for a host. */
export interface HostQuery {
  /** The runtime folder (runtimeDir()). */
  readonly dir: string;
  /** `--browser`: only a host of this browser. */
  readonly browser?: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** A host that accepted the hello; `socket` is paused, `rest` holds MCP bytes that came with the answer. */
export interface GreetedHost {
  readonly socket: Socket;
  readonly rest: Buffer;
  readonly accepted: HelloAccepted;
  /** One line for stderr: which host, and the others running. */
  readonly note: string;
}

/** No host could be reached; `message` says why and what to do. */
export class HostUnreachableError extends Error {
  override name = 'HostUnreachableError';
}

/** Finds a host and says hello; rejects with HostUnreachableError. */
export async function reachHost(query: HostQuery): Promise<GreetedHost> {
  const { host, note } = await pickHost(query);
  const token = query.env[TOKEN_ENV] || readToken(host.tokenFile);
  if (!token) {
    throw new HostUnreachableError(
      `Tether cannot use its host: no token (set ${TOKEN_ENV}, or let tether mcp read the host's token file, ${host.tokenFile ?? 'none published'}).`,
    );
  }
  return { ...(await greet(host.socket, token)), note };
}

/** The names of the hosts' announcements in `dir`, as one string that changes when a host comes or goes. */
export function announcements(dir: string): string {
  try {
    return readdirSync(dir)
      .filter((name) => ANNOUNCEMENT_FILE.test(name))
      .sort()
      .join(',');
  } catch {
    return '';
  }
}

async function pickHost(query: HostQuery): Promise<{ host: HostAnnouncement; note: string }> {
  const forced = query.env[SOCKET_ENV];
  if (forced) {
    if (!(await socketAnswers(forced)))
      throw new HostUnreachableError(`${NOT_RUNNING} (Nothing answers at ${forced}.)`);
    return {
      host: { socket: forced, browser: 'the host that started this agent', pid: 0, startedAtMs: 0 },
      note: `using the Tether host at ${forced}`,
    };
  }
  const live = await liveHosts(query.dir);
  if (live.length === 0) {
    throw new HostUnreachableError(
      `${NOT_RUNNING} (No Tether host is announced in ${query.dir}; a browser started with ${RUNTIME_DIR_ENV} set announces its host elsewhere: give tether mcp the same ${RUNTIME_DIR_ENV}.)`,
    );
  }
  const wanted = query.browser?.toLowerCase();
  const host = wanted ? live.find((h) => h.browser.toLowerCase() === wanted) : live[0];
  if (!host) {
    throw new HostUnreachableError(
      `No Tether host runs for "${query.browser}"; running: ${live.map((h) => h.browser).join(', ')}. Fix: pass one of them to --browser, or open the Tether side panel in ${query.browser}.`,
    );
  }
  const others =
    live.length > 1 ? ` (${live.length} hosts run: ${live.map((h) => h.browser).join(', ')}; --browser picks one)` : '';
  const when = new Date(host.startedAtMs).toLocaleTimeString();
  const served = host.connection === undefined ? '' : `, daemon connection ${host.connection}`;
  return {
    host,
    note: `using the Tether host of ${host.browser} (pid ${host.pid}${served}, started ${when})${others}`,
  };
}

function readToken(file: string | undefined): string | undefined {
  if (!file) return undefined;
  try {
    return readFileSync(file, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

function greet(path: string, token: string): Promise<Omit<GreetedHost, 'note'>> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(path);
    const first = new FirstLine();
    let settled = false;
    const fail = (message: string): void => {
      if (settled) return;
      settled = true;
      socket.destroy();
      reject(new HostUnreachableError(message));
    };
    socket.once('error', (error) => fail(`${NOT_RUNNING} (${errorMessage(error)})`));
    socket.once('close', () => fail('The Tether host closed the connection before answering; call the tool again.'));
    socket.once('connect', () => socket.write(helloLine({ token })));
    const onData = (chunk: Buffer): void => {
      let got: ReturnType<FirstLine['push']>;
      let answer: ReturnType<typeof parseAnswer>;
      try {
        got = first.push(chunk);
        if (!got) return;
        answer = parseAnswer(got.line);
      } catch (error) {
        fail(`The Tether host answered something unexpected: ${errorMessage(error)}`);
        return;
      }
      if ('error' in answer) {
        fail(`The Tether host refused: ${answer.error.message}`);
        return;
      }
      // From here on the bytes are MCP: hold them until the MCP client listens.
      socket.pause();
      socket.off('data', onData);
      settled = true;
      resolve({ socket, rest: got.rest, accepted: answer.ok });
    };
    socket.on('data', onData);
  });
}
