import { describe, expect, it } from 'vitest';
import { McpHub } from '../mcp/hub';
import { FakeBackend } from '../testing/fake-backend';
import { SharedCommand, type SharedCommandOptions } from './shared-command';
import { SharedCommandClient } from './shared-command-client';
import type { BackendExit, BackendSink } from './types';

/** A browser connection's sink that records what it is told. */
function recordingSink(): BackendSink & { problems: string[]; messages: unknown[]; exits: BackendExit[] } {
  const problems: string[] = [];
  const messages: unknown[] = [];
  const exits: BackendExit[] = [];
  return {
    problems,
    messages,
    exits,
    message: (chunk, start, end) => messages.push(JSON.parse(chunk.toString('utf8', start, end))),
    messageParts: (parts, length) => messages.push(JSON.parse(Buffer.concat(parts, length).toString('utf8'))),
    problem: (message) => problems.push(message),
    inputPressure: () => undefined,
    exit: (info) => exits.push(info),
  };
}

function sharedCommand(now: () => number): { backend: FakeBackend; shared: SharedCommand } {
  const backend = new FakeBackend('agent', { kind: 'command', argv: ['agent'], dialect: 'acp' });
  const options: SharedCommandOptions = {
    log: () => undefined,
    pageToolWaitMs: 1000,
    hub: new McpHub({ browser: 'daemon', log: () => undefined, connection: 0 }),
    create: () => backend,
    now,
  };
  return { backend, shared: new SharedCommand(backend, options) };
}

describe('a shared command backend', () => {
  it('reports lines that are not JSON as the in-process host does: five, then one a second saying how many it dropped', () => {
    let clock = 10_000;
    const { backend, shared } = sharedCommand(() => clock);
    const sink = recordingSink();
    new SharedCommandClient(shared, () => undefined).start(sink);
    const garbage = (n: number): void => {
      const line = Buffer.from(`log line ${n}`);
      backend.sink.message(line, 0, line.length);
    };
    for (let n = 1; n <= 50; n++) garbage(n);
    expect(sink.problems).toHaveLength(5);
    clock += 1000;
    garbage(51);
    expect(sink.problems).toHaveLength(6);
    expect(sink.problems[5]).toContain('(45 more such lines were dropped since the last report)');
    expect(sink.problems[5]).toContain('"log line 51"');
  });
});
