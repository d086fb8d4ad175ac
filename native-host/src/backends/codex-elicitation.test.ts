import { describe, expect, it } from 'vitest';
import { elicitation } from './codex-elicitation';

describe('codex elicitation', () => {
  it("words a server's own question (no tool) and accepts it with no fields, since Tether fills in no form", () => {
    const asked = elicitation({
      threadId: 't1',
      turnId: 'u1',
      serverName: 'jira',
      mode: 'form',
      message: 'Pick a project',
      requestedSchema: { type: 'object', properties: {} },
    });
    expect(asked.spec).toEqual({
      threadId: 't1',
      turnId: 'u1',
      toolName: 'jira',
      preview: `The "jira" MCP server asks you something (the server's own request, through Codex): Pick a project`,
      arguments: { server: 'jira', message: 'Pick a project' },
      choices: ['allow', 'deny'],
    });
    expect(asked.answer('allow')).toEqual({ action: 'accept', content: {} });
    expect(asked.answer('deny')).toEqual({ action: 'decline', content: null });
    expect(asked.answer('cancelled')).toEqual({ action: 'cancel', content: null });
  });

  it('reads malformed params without throwing', () => {
    expect(elicitation(null).spec.toolName).toBe('an MCP server');
    expect(elicitation({ _meta: 'x', serverName: 3 }).spec.preview).toContain('an MCP server');
  });
});
