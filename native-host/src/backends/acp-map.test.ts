import { describe, expect, it } from 'vitest';
import { approvalCard, sessionModels } from './acp-map';

describe('ACP values as Tether values', () => {
  it("shows Claude Code's shell command once, though its title repeats it in backticks, under Codex's tool name", () => {
    const card = approvalCard({
      toolCallId: 'toolu_1',
      title: '`touch a && echo hi`',
      kind: 'execute',
      rawInput: { command: 'touch a && echo hi', description: 'mark' },
    });
    expect(card).toEqual({
      toolName: 'shell',
      preview: 'touch a && echo hi',
      arguments: { command: 'touch a && echo hi', description: 'mark' },
    });
  });

  it("takes Gemini's command from the title when the request has no rawInput", () => {
    expect(approvalCard({ toolCallId: 'c', title: 'touch b', kind: 'execute' })).toEqual({
      toolName: 'shell',
      preview: 'touch b',
      arguments: { command: 'touch b' },
    });
  });

  it('keeps a descriptive title beside the command, and a non-shell tool by its title', () => {
    expect(approvalCard({ title: 'Run echo', kind: 'execute', rawInput: { command: 'echo hi' } }).preview).toBe(
      'Run echo: echo hi',
    );
    expect(approvalCard({ title: 'page_click', kind: 'other' })).toEqual({
      toolName: 'page_click',
      preview: 'page_click',
      arguments: {},
    });
  });

  it('reads the model from models.currentModelId, or from a model config option first', () => {
    expect(
      sessionModels({
        models: {
          currentModelId: 'default',
          availableModels: [{ modelId: 'default', name: 'Default' }, { modelId: 'opus' }, { name: 'no id' }],
        },
      }),
    ).toEqual({ current: 'default', available: [{ id: 'default', displayName: 'Default' }, { id: 'opus' }] });
    expect(sessionModels({ configOptions: [{ id: 'model', currentValue: 'gpt-4.1' }] })).toEqual({
      current: 'gpt-4.1',
      available: [],
    });
    expect(sessionModels({})).toEqual({ available: [] });
  });
});
