import type { z } from 'zod';

/** JSON-RPC and Tether error codes (see protocol.md). */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  Overloaded: -32001,
  NotInitialized: -32010,
  AlreadyInitialized: -32011,
  ExperimentalApiRequired: -32012,
  Unsupported: -32013,
  ThreadNotFound: -32020,
  ThreadArchived: -32021,
  ThreadBusy: -32022,
  NoActiveTurn: -32030,
  TurnMismatch: -32031,
  ApprovalNotFound: -32040,
  BackendUnavailable: -32050,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** An error that travels as a JSON-RPC error object; thrown by handlers, rejected by requests. */
export class RpcError extends Error {
  override name = 'RpcError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** The wire form `{code, message, data?}`. */
  toJSON(): { code: number; message: string; data?: unknown } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  /** Rebuilds an error received on the wire. */
  static fromObject(error: { code: number; message: string; data?: unknown }): RpcError {
    return new RpcError(error.code, error.message, error.data);
  }

  static parseError(detail: string): RpcError {
    return new RpcError(ErrorCode.ParseError, `Parse error: ${detail}`);
  }
  static invalidRequest(detail: string): RpcError {
    return new RpcError(ErrorCode.InvalidRequest, `Invalid request: ${detail}`);
  }
  static methodNotFound(method: string): RpcError {
    return new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
  }
  /** Invalid params, with the Zod issues (path, message, code) in `data`. */
  static invalidParams(method: string, error: z.ZodError): RpcError {
    const issues = error.issues.map((i) => ({ path: i.path.map(String), message: i.message, code: i.code }));
    const first = issues[0];
    const where = first && first.path.length > 0 ? ` at ${first.path.join('.')}` : '';
    return new RpcError(
      ErrorCode.InvalidParams,
      `Invalid params for ${method}${where}: ${first?.message ?? 'invalid'}`,
      { issues },
      { cause: error },
    );
  }
  static internal(detail: string, cause?: unknown): RpcError {
    return new RpcError(ErrorCode.InternalError, `Internal error: ${detail}`, undefined, { cause });
  }
  static notInitialized(): RpcError {
    return new RpcError(ErrorCode.NotInitialized, 'Not initialized: send initialize first');
  }
  static alreadyInitialized(): RpcError {
    return new RpcError(ErrorCode.AlreadyInitialized, 'Already initialized');
  }
  static unsupported(method: string, backend: string): RpcError {
    return new RpcError(ErrorCode.Unsupported, `${method} is not supported by the ${backend} backend`, {
      method,
      backend,
    });
  }
  static threadNotFound(threadId: string): RpcError {
    return new RpcError(ErrorCode.ThreadNotFound, `Thread not found: ${threadId}`, { threadId });
  }
  static threadArchived(threadId: string): RpcError {
    return new RpcError(ErrorCode.ThreadArchived, `Thread ${threadId} is archived: unarchive it first`, { threadId });
  }
  static threadBusy(threadId: string, turnId: string): RpcError {
    return new RpcError(
      ErrorCode.ThreadBusy,
      `Thread ${threadId} is busy: turn ${turnId} is still running (interrupt it or steer it)`,
      { threadId, turnId },
    );
  }
  static noActiveTurn(threadId: string): RpcError {
    return new RpcError(ErrorCode.NoActiveTurn, `Thread ${threadId} has no active turn`, { threadId });
  }
  static turnMismatch(threadId: string, expected: string, actual: string): RpcError {
    return new RpcError(
      ErrorCode.TurnMismatch,
      `Turn id mismatch on thread ${threadId}: expected ${expected}, the active turn is ${actual}`,
      { threadId, expectedTurnId: expected, activeTurnId: actual },
    );
  }
  /** -32602 for an item id (`afterItemId`) the thread does not have: the client's cursor is wrong, not the thread. */
  static itemNotFound(threadId: string, itemId: string): RpcError {
    return new RpcError(ErrorCode.InvalidParams, `Invalid params: item ${itemId} is not in thread ${threadId}`, {
      threadId,
      itemId,
    });
  }
  static approvalNotFound(requestId: string): RpcError {
    return new RpcError(ErrorCode.ApprovalNotFound, `Approval ${requestId} not found or already resolved`, {
      requestId,
    });
  }
  static backendUnavailable(detail: string, data?: unknown): RpcError {
    return new RpcError(ErrorCode.BackendUnavailable, `Backend unavailable: ${detail}`, data);
  }
}

/** The transport failed or closed; distinct from protocol errors (RpcError). */
export class TransportError extends Error {
  override name = 'TransportError';
}

/** The transport is closed: pending requests are rejected with this. */
export class TransportClosedError extends TransportError {
  override name = 'TransportClosedError';
  constructor(message = 'Connection closed', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A message or frame exceeds a configured size limit. */
export class MessageTooLargeError extends TransportError {
  override name = 'MessageTooLargeError';
  constructor(
    readonly size: number,
    readonly limit: number,
    what = 'message',
  ) {
    super(`${what} of ${size} bytes exceeds the limit of ${limit} bytes`);
  }
}

/** Bytes that cannot be decoded: bad framing, invalid UTF-8 or invalid JSON. */
export class FrameError extends TransportError {
  override name = 'FrameError';
}

/** A request got no response in time. */
export class RequestTimeoutError extends Error {
  override name = 'RequestTimeoutError';
  constructor(
    readonly method: string,
    readonly timeoutMs: number,
  ) {
    super(`${method} got no response within ${timeoutMs} ms`);
  }
}

/** A wait for a notification ended without one arriving in time. */
export class NotificationTimeoutError extends Error {
  override name = 'NotificationTimeoutError';
  constructor(
    readonly what: string,
    readonly timeoutMs: number,
  ) {
    super(`No ${what} notification arrived within ${timeoutMs} ms`);
  }
}

/** The message of anything thrown: an Error's `message`, or the value as text (a thrown string, a rejected value). */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  try {
    return String(error);
  } catch {
    return typeof error;
  }
}
