/**
 * The models of an ACP agent: ACP has no list outside a session, so `model/list` shows those the latest session offered
 * (`models.availableModels`), the default is what a session starts with, and switching is `session/set_model`.
 */
import type { ModelInfo } from '@tether/protocol';
import { type AcpModel, sessionModels } from './acp-map';

/** Models seen in the agent's sessions, and switching them. */
export class AcpModels {
  private models: AcpModel[] = [];
  private defaultModel: string | undefined;

  constructor(
    private readonly request: (method: string, params: unknown) => Promise<unknown>,
    private readonly log: (line: string) => void,
    private readonly provider: string,
  ) {}

  /** The models for `model/list` (none before the first session). */
  list(): ModelInfo[] {
    return this.models.map((m) => ({
      id: m.id,
      ...(m.displayName ? { displayName: m.displayName } : {}),
      provider: this.provider,
      isDefault: m.id === this.defaultModel,
    }));
  }

  /** The model of a new or loaded session: `wanted` when the agent switches to it, else the session's own ('' if none). */
  async ofSession(sessionId: string, session: Record<string, unknown>, wanted?: string): Promise<string> {
    const { current, available } = sessionModels(session);
    if (available.length > 0) this.models = available;
    this.defaultModel ??= current;
    if (!wanted || wanted === current) return current ?? '';
    return (await this.switch(sessionId, wanted)) ? wanted : (current ?? '');
  }

  /** Asks the agent to run `modelId` in a session; false (logged) when it cannot. */
  async switch(sessionId: string, modelId: string): Promise<boolean> {
    try {
      await this.request('session/set_model', { sessionId, modelId });
      return true;
    } catch (error) {
      this.log(`the agent did not switch session ${sessionId} to model ${modelId}: ${String(error)}`);
      return false;
    }
  }
}
