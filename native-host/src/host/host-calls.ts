/**
 * The host's own requests to the browser (page tools for external MCP clients). Their ids carry a prefix no browser
 * request id uses, so every answer with that prefix is the host's: one that arrives after the host stopped waiting
 * (the caller cancelled or went away) is dropped here, never passed on to the backend as a stray response.
 */
import { parseJsonPayload } from '@tether/protocol/codec';
import { errorMessage } from '@tether/protocol/errors';

/** Ids of the host's own requests to the browser: a prefix no browser request id uses. */
const HOST_REQUEST_PREFIX = 'tether_host_';
/** The prefix as it starts an id's JSON text. */
const RAW_PREFIX = JSON.stringify(HOST_REQUEST_PREFIX).slice(0, -1);

interface Waiting {
  resolve(result: unknown): void;
  reject(error: Error): void;
}

/** Requests the host sent the browser and still waits for. */
export class HostCalls {
  private readonly waiting = new Map<string, Waiting>();
  private counter = 0;

  /** @param write Sends one message's JSON text to the browser. */
  constructor(private readonly write: (text: string) => void) {}

  /** Whether `rawId` (an id's JSON text) names one of the host's requests, answered or not. */
  owns(rawId: string): boolean {
    return rawId.startsWith(RAW_PREFIX);
  }

  /** Sends a request; resolves with its result, rejects with its error, or when `signal` aborts (then forgotten). */
  request(method: string, params: unknown, signal?: AbortSignal): Promise<unknown> {
    const id = JSON.stringify(`${HOST_REQUEST_PREFIX}${++this.counter}`);
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(new Error(`${method} was abandoned before it was sent`));
        return;
      }
      const onAbort = (): void => {
        if (this.waiting.delete(id)) reject(new Error(`${method} was abandoned: its caller stopped waiting`));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = (): void => signal?.removeEventListener('abort', onAbort);
      this.waiting.set(id, {
        resolve: (result) => {
          done();
          resolve(result);
        },
        reject: (error) => {
          done();
          reject(error);
        },
      });
      this.write(`{"id":${id},"method":${JSON.stringify(method)},"params":${JSON.stringify(params)}}`);
    });
  }

  /** Settles the request that the browser's response `payload` answers; an answer nobody waits for is dropped. */
  settle(rawId: string, payload: Buffer): void {
    const call = this.waiting.get(rawId);
    if (!call) return;
    this.waiting.delete(rawId);
    let message: unknown;
    try {
      message = parseJsonPayload(payload, 'Response');
    } catch (error) {
      call.reject(new Error(errorMessage(error)));
      return;
    }
    const body = typeof message === 'object' && message !== null ? message : {};
    if ('error' in body) {
      const error = typeof body.error === 'object' && body.error !== null ? body.error : {};
      call.reject(
        new Error('message' in error && typeof error.message === 'string' ? error.message : 'the browser refused'),
      );
    } else call.resolve('result' in body ? body.result : undefined);
  }

  /** Fails every waiting request (the browser connection is closing). */
  rejectAll(reason: string): void {
    for (const call of this.waiting.values()) call.reject(new Error(reason));
    this.waiting.clear();
  }
}
