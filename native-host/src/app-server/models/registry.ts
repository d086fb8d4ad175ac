/** Which model runs a turn, and what `model/list` answers. */
import type { ModelInfo } from '@tether/protocol';
import { ModelError, type Model } from './model';
import { listOpenAiModels, OpenAiModel } from './openai';
import type { OpenAiConfig } from './openai-config';
import { SCRIPTED_MODEL_ID, ScriptedModel } from './scripted';
import { errorMessage } from '@tether/protocol/errors';

/** The alias that selects the endpoint's configured model. */
export const OPENAI_ALIAS = 'openai';

/** A model ready to run, with the id it runs as. */
export interface ResolvedModel {
  readonly id: string;
  readonly model: Model;
}

/** Resolves model names: `scripted`, `openai` (the configured endpoint model), or any id of the endpoint. */
export class ModelRegistry {
  private readonly scripted = new ScriptedModel();

  constructor(
    /** Model of threads started without one. */
    readonly defaultModel: string,
    private readonly openai: OpenAiConfig | undefined,
    private readonly log: (line: string) => void,
  ) {}

  /** The model for `name`, or a ModelError that says how to make it available. */
  resolve(name: string): ResolvedModel | ModelError {
    if (name === SCRIPTED_MODEL_ID) return { id: name, model: this.scripted };
    if (!this.openai) {
      return new ModelError(
        `Model "${name}" needs an OpenAI-compatible endpoint: set TETHER_OPENAI_BASE_URL (and TETHER_OPENAI_API_KEY if it ` +
          'needs one), or use the "scripted" model.',
        'model_unavailable',
      );
    }
    const id = name === OPENAI_ALIAS ? this.openai.model : name;
    if (!id) {
      return new ModelError(
        'Model "openai" needs a model id: set TETHER_OPENAI_MODEL (e.g. gpt-4o-mini or llama3.2).',
        'model_unavailable',
      );
    }
    return { id, model: new OpenAiModel(this.openai, id) };
  }

  /** `scripted`, then the endpoint's models (from `/models`, or the configured model when that fails). */
  async list(): Promise<ModelInfo[]> {
    const models: ModelInfo[] = [{ id: SCRIPTED_MODEL_ID, displayName: 'Scripted (offline)', provider: 'tether' }];
    if (this.openai) {
      let ids: string[] = [];
      try {
        ids = await listOpenAiModels(this.openai);
      } catch (error) {
        this.log(`model/list: ${errorMessage(error)}; listing the configured model only`);
      }
      if (ids.length === 0 && this.openai.model) ids = [this.openai.model];
      for (const id of ids) models.push({ id, displayName: id, provider: 'openai' });
    }
    const defaultId = this.defaultModel === OPENAI_ALIAS ? this.openai?.model : this.defaultModel;
    let marked = false;
    for (const m of models) {
      if (!marked && m.id === defaultId) {
        m.isDefault = true;
        marked = true;
      }
    }
    if (!marked && defaultId && this.openai)
      models.push({ id: defaultId, displayName: defaultId, provider: 'openai', isDefault: true });
    return models;
  }
}
