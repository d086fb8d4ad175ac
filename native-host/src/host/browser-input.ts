/**
 * The browser's side of `tether host`, whether it relays or serves in-process: native-messaging frames read from
 * stdin, and what ends the host (stdin's end or failure, an unreadable frame, a signal). One copy for both.
 */
import { BROWSER_MAX_INBOUND_BYTES, FrameSplitter, type PayloadSink } from '@tether/protocol/codec';
import type { Log } from '../log';
import type { FrameWriter } from './frame-writer';
import { HostExit } from './host-exit';

/**
 * Hands each frame on stdin to `sink` until the input ends, a frame cannot be read (told to the browser through
 * `writer` when it is still there) or a signal comes; each of those calls `finish` with its reason and exit code.
 */
export function readBrowserFrames(
  sink: Pick<PayloadSink<Buffer>, 'message' | 'messageParts'>,
  writer: FrameWriter,
  log: Log,
  finish: (reason: string, code: number) => void,
): void {
  const stdin = process.stdin;
  const frames = new FrameSplitter<Buffer>(
    {
      message: sink.message,
      messageParts: sink.messageParts,
      error: (error) => {
        log(error.message);
        if (!frames.failed) {
          // The input ended inside a frame: the browser is gone, so nothing is sent back.
          finish('input ended inside a frame', HostExit.BadInput);
          return;
        }
        writer.enqueueText(JSON.stringify({ method: 'error', params: { message: error.message, code: 'frameError' } }));
        finish('unreadable input', HostExit.BadInput);
      },
    },
    { maxFrameBytes: BROWSER_MAX_INBOUND_BYTES },
  );
  stdin.on('data', (chunk: Buffer) => frames.push(chunk));
  stdin.once('end', () => {
    frames.end();
    finish('input ended (the extension disconnected)', HostExit.Ok);
  });
  stdin.once('error', (error) => finish(`stdin failed: ${error.message}`, HostExit.Ok));
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const)
    process.once(signal, () => finish(signal, HostExit.Ok));
}
