/**
 * `tether debug app-server send-message TEXT [--model NAME]`: starts the app-server in-process, runs one turn and
 * prints every message exchanged, one per line: `>` client to server, `<` server to client.
 */
import {
  AppServerClient,
  createMemoryTransportPair,
  type MessageTransport,
  NotificationRecorder,
} from '@tether/protocol';
import { createAppServer } from './index';

const USAGE = 'Usage: tether debug app-server send-message TEXT [--model NAME]';

/** Runs the debug command; resolves with the exit code (1 when the turn does not complete). */
export async function main(args: string[]): Promise<number> {
  const [target, command, ...rest] = args;
  if (target !== 'app-server' || command !== 'send-message') {
    process.stderr.write(
      `tether debug: ${target ? `unknown target "${[target, command].filter(Boolean).join(' ')}"` : 'missing target'}\n${USAGE}\n`,
    );
    return 2;
  }
  let model: string | undefined;
  const words: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--model') model = rest[++i];
    else words.push(rest[i]!);
  }
  const text = words.join(' ');
  if (text === '') {
    process.stderr.write(`tether debug: no message to send\n${USAGE}\n`);
    return 2;
  }
  const print = (line: string): void => {
    process.stdout.write(`${line}\n`);
  };
  const server = createAppServer({
    dataDir: null,
    ...(model ? { model } : {}),
    log: (line) => process.stderr.write(`app-server: ${line}\n`),
  });
  const [clientSide, serverSide] = createMemoryTransportPair();
  server.connect(serverSide);
  const client = new AppServerClient(tap(clientSide, print));
  const recorder = new NotificationRecorder(client.connection);
  // The person running this typed the command, so a /bash approval is granted; the exchange shows it.
  client.handle('approval/request', () => ({ decision: 'allow' }));
  try {
    await client.initialize({
      clientInfo: { name: 'tether-debug', version: '1' },
      capabilities: { experimentalApi: false, optOutNotificationMethods: [] },
    });
    const { thread } = await client.threadStart({ title: 'debug', ephemeral: true });
    const completed = recorder.waitFor('turn/completed', (p) => p.turn.threadId === thread.id);
    await client.turnStart({ threadId: thread.id, input: [{ text }] });
    const { turn } = await completed;
    await client.threadRead({ threadId: thread.id });
    return turn.status === 'completed' ? 0 : 1;
  } finally {
    await server.close();
  }
}

/** Prints every message that crosses `transport`. */
function tap(transport: MessageTransport, print: (line: string) => void): MessageTransport {
  return {
    start(handlers) {
      transport.start({
        ...handlers,
        onMessage(message) {
          print(`< ${JSON.stringify(message)}`);
          handlers.onMessage(message);
        },
      });
    },
    send(message) {
      print(`> ${JSON.stringify(message)}`);
      transport.send(message);
    },
    close() {
      transport.close();
    },
  };
}
