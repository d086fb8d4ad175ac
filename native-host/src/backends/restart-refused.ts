/** The error a restart the user asked for fails with when it would cut off turns they do not see. */
import { ErrorCode, RpcError } from '@tether/protocol/errors';

/**
 * `bridge/backend/restart` refused, nothing stopped: the backend is shared and turns run on it that this browser does
 * not follow alone. Answered to the browser as a -32022 (busy) error with `runningTurns`.
 */
export class RestartRefused extends RpcError {
  override name = 'RestartRefused';
  constructor(backend: string, runningTurns: number) {
    super(
      ErrorCode.ThreadBusy,
      `The "${backend}" backend was not restarted: ${runningTurns} turn(s) run on it that this browser does not follow ` +
        'alone (in another browser, or left running after a browser closed), and a restart would cut them off. ' +
        'Wait for them to end, or open them from History and stop them, then restart again.',
      { backend, runningTurns },
    );
  }
}
