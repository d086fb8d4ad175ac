/**
 * How the host reads a batch (a JSON array of messages) from the browser. Batches are rare (the extension sends none
 * today), so they get the simple treatment that is safe whatever their content: the members are found in place by
 * forEachBatchMember and routed one by one, as their own bytes, exactly as single messages are. Nothing is parsed or
 * re-encoded, so the cost is linear in the frame and no nesting can overflow the stack (parsing each member and
 * re-encoding it did both: a 5,000-deep member crashed the host).
 */
import { RpcError } from '@tether/protocol/errors';
import { forEachBatchMember } from './envelope-scan';

/** Messages in one batch at most: one frame must not make the host send answers without bound. */
export const MAX_BATCH_MESSAGES = 1000;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;

/** One member of a batch: the byte range of a message object to route, or the error that answers it (id null). */
export type BatchMember = { readonly start: number; readonly end: number } | RpcError;

/**
 * The members of the batch in `payload`, in order, or one error answering the whole batch (malformed: -32700; empty
 * or over MAX_BATCH_MESSAGES: -32600). As JSON-RPC says, a member that is not an object gets its own -32600; a batch
 * inside a batch is refused at the first level, as the app-server refuses it.
 */
export function splitBatch(payload: Buffer): BatchMember[] | RpcError {
  const members: BatchMember[] = [];
  const walk = forEachBatchMember(payload, (start, end) => {
    if (payload[start] === OPEN_BRACE) members.push({ start, end });
    else if (payload[start] === OPEN_BRACKET)
      members.push(
        RpcError.invalidRequest('a batch cannot contain a batch; send its messages as members of one batch'),
      );
    else
      members.push(
        RpcError.invalidRequest(
          `each member of a batch must be a message object; got ${preview(payload.subarray(start, end))}`,
        ),
      );
    return members.length <= MAX_BATCH_MESSAGES;
  });
  if (walk === 'stopped')
    return RpcError.invalidRequest(
      `a batch holds at most ${MAX_BATCH_MESSAGES} messages; send the rest in further frames`,
    );
  if (walk === 'malformed')
    return RpcError.parseError(
      `a batch must be a JSON array of messages, and this one is not well-formed; it starts with ${preview(payload)}`,
    );
  if (members.length === 0) return RpcError.invalidRequest('an empty batch ([]) holds no message; send at least one');
  return members;
}

/** The first bytes of `bytes` as a JSON string, for error messages. */
export function preview(bytes: Buffer): string {
  return JSON.stringify(bytes.subarray(0, 100).toString('utf8'));
}
