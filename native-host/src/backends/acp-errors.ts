/**
 * An ACP agent's errors in Tether's terms: missing credentials become "backend unavailable" with what this agent needs
 * to sign in, an unknown session becomes "thread not found".
 */
import { RpcError } from '@tether/protocol';
import { presetOf } from './presets';

/** ACP's error codes the adapter reads (the ACP schema's `ErrorCode`). */
export const AcpErrorCode = {
  /** The agent needs the user to sign in first. */
  AuthRequired: -32000,
  /** A session (or other resource) the agent does not know. */
  ResourceNotFound: -32002,
  /** A prompt cancelled by `session/cancel` (JSON-RPC's request-cancelled code). */
  RequestCancelled: -32800,
} as const;

/** Which agent failed: its backend id, command and the name it gave itself, to say what it needs. */
export interface AcpAgentRef {
  readonly backendId: string;
  readonly agentName: string;
  readonly command?: string;
}

/** The Tether error for an agent's error answering `method` (for thread `threadId`, when it concerns one). */
export function mapAcpError(error: unknown, method: string, agent: AcpAgentRef, threadId?: string): Error {
  if (!(error instanceof RpcError)) return error instanceof Error ? error : new Error(String(error));
  if (error.code === AcpErrorCode.AuthRequired) {
    const env = `backends.${agent.backendId}.env of the Tether config`;
    const preset = presetOf(agent);
    const fix = preset
      ? preset.signIn(env)
      : `sign in with the agent's own login command, or give it an API key or provider in ${env}`;
    return RpcError.backendUnavailable(`${agent.agentName} needs you to sign in (${error.message}). Fix: ${fix}`, {
      method,
      agentCode: error.code,
    });
  }
  if (error.code === AcpErrorCode.ResourceNotFound && threadId) return RpcError.threadNotFound(threadId);
  return error;
}
