import { describe, expect, it } from 'vitest';
import { offeredChoices } from '../approval-choices';
import type { PendingApproval } from '../records';
import { choiceLabel } from './approval-card';

const base: PendingApproval = {
  key: 'k',
  source: 'server',
  threadId: 't',
  turnId: 'u',
  requestId: 'r',
  tabId: 1,
  origin: 'https://news.example',
  toolName: 'bash',
  preview: 'Run `ls`',
  choices: ['allow', 'allow_session', 'deny'],
  createdAtMs: 0,
};

const labels = (a: PendingApproval): string[] => offeredChoices(a).map((c) => choiceLabel(a, c));

describe('approval card labels', () => {
  it('says a command grant covers this exact command when the backend scopes it so', () => {
    expect(labels({ ...base, sessionScope: 'command' })).toEqual([
      'Allow once',
      'Allow this exact command for this thread',
      'Deny',
    ]);
  });

  it('names the tool a thread grant covers when the backend grants the whole tool', () => {
    expect(labels({ ...base, toolName: 'apply_patch' })).toEqual([
      'Allow once',
      'Allow apply_patch for this thread',
      'Deny',
    ]);
  });

  it('names the one origin a page tool grant or site rule covers', () => {
    expect(labels({ ...base, source: 'client-tool', toolName: 'page_read' })).toEqual([
      'Allow once',
      'Allow for this thread on https://news.example',
      'Always allow page_read on https://news.example',
      'Deny',
      'Always deny page_read on https://news.example',
    ]);
  });
});
