import { describe, expect, it } from 'vitest';
import { offeredChoices } from '../approval-choices';
import type { PendingApproval } from '../records';
import { approvalQuestion, choiceGroups, choiceLabel, commandOf } from './approval-card';

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
const rows = (a: PendingApproval) => {
  const { primary, remember } = choiceGroups(a);
  return { primary: primary.map((c) => choiceLabel(a, c)), remember: remember.map((c) => choiceLabel(a, c)) };
};
const page: PendingApproval = { ...base, source: 'client-tool', toolName: 'page_read', arguments: {} };

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

describe('approval card layout', () => {
  it('puts Allow once and Deny in the first row and every remembered choice in a second', () => {
    expect(rows(page)).toEqual({
      primary: ['Allow once', 'Deny'],
      remember: [
        'Allow for this thread on https://news.example',
        'Always allow page_read on https://news.example',
        'Always deny page_read on https://news.example',
      ],
    });
    expect(rows({ ...base, sessionScope: 'command' })).toEqual({
      primary: ['Allow once', 'Deny'],
      remember: ['Allow this exact command for this thread'],
    });
  });

  it('groups exactly the offered choices, no more and no fewer', () => {
    const cases: PendingApproval[] = [
      page,
      base,
      { ...page, origin: 'file:///tmp/x.html' },
      { ...base, choices: ['allow', 'deny'] },
    ];
    for (const a of cases) {
      const { primary, remember } = choiceGroups(a);
      expect([...primary, ...remember].sort()).toEqual([...offeredChoices(a)].sort());
    }
  });

  it('asks about this computer for a server command and shows the command in full', () => {
    const long = `echo ${'x'.repeat(300)}`;
    const a: PendingApproval = { ...base, origin: 'http://127.0.0.1:8080', arguments: { command: long } };
    expect(approvalQuestion(a)).toBe('Run a command on this computer?');
    expect(approvalQuestion(a)).not.toContain('127.0.0.1');
    expect(commandOf(a)).toEqual({ command: long, rest: {} });
  });

  it('joins an argv command and keeps the other arguments apart', () => {
    const a: PendingApproval = { ...base, toolName: 'shell', arguments: { command: ['ls', '-la'], cwd: '/tmp' } };
    expect(commandOf(a)).toEqual({ command: 'ls -la', rest: { cwd: '/tmp' } });
  });

  it('asks about this computer for a server tool that runs no command, and names the origin for a page tool', () => {
    expect(approvalQuestion({ ...base, toolName: 'apply_patch', arguments: { changes: [] } })).toBe(
      'Let apply_patch act on this computer?',
    );
    expect(approvalQuestion(page)).toBe('Let page_read run on https://news.example?');
    expect(commandOf({ ...page, arguments: { command: 'ls' } })).toBeUndefined();
  });
});
