/**
 * When a `session/load` replay ends. Gemini CLI answers `session/load` after the first replayed update and streams the
 * rest after its answer, so the answer does not end the replay: it has ended once the session has been quiet for a
 * moment. Until then its updates are history, never part of the new turn.
 */

/** A replay has ended once the agent sent nothing on the session for this long (Gemini's trail is ~1 ms apart). */
export const REPLAY_QUIET_MS = 150;
/** ... or after this long, whatever it still sends. */
export const REPLAY_MAX_MS = 3000;

/** The time of each session's latest update. */
export class ReplayWatch {
  private readonly lastUpdateAt = new Map<string, number>();

  /** Records an update on `sessionId`. */
  noteUpdate(sessionId: string): void {
    this.lastUpdateAt.set(sessionId, Date.now());
  }

  /** Resolves once `sessionId` has been quiet for REPLAY_QUIET_MS, or REPLAY_MAX_MS from now. */
  async ended(sessionId: string): Promise<void> {
    const until = Date.now() + REPLAY_MAX_MS;
    for (;;) {
      const quietFor = Date.now() - (this.lastUpdateAt.get(sessionId) ?? 0);
      if (quietFor >= REPLAY_QUIET_MS || Date.now() >= until) return;
      await new Promise((resolve) => setTimeout(resolve, Math.min(REPLAY_QUIET_MS - quietFor, until - Date.now())));
    }
  }
}
