import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataDir } from '../paths';
import { parseArgs } from './cli';

describe('tether app-server arguments', () => {
  it('defaults to stdio, the XDG data dir and no model override', () => {
    expect(parseArgs(['--listen', 'stdio'])).toEqual({ dataDir: dataDir(), jsonrpc: false });
  });

  it('takes a data dir (made absolute), --memory, a model and --jsonrpc, with or without "="', () => {
    expect(parseArgs(['--listen=stdio', '--data-dir', 'rel/dir', '--model=gpt-4o-mini', '--jsonrpc'])).toEqual({
      dataDir: resolve('rel/dir'),
      model: 'gpt-4o-mini',
      jsonrpc: true,
    });
    expect(parseArgs(['--memory'])).toEqual({ dataDir: null, jsonrpc: false });
  });

  it('explains what is wrong with bad arguments', () => {
    expect(parseArgs(['--listen', 'tcp'])).toEqual({ error: '--listen tcp is not supported: only stdio is' });
    expect(parseArgs(['--data-dir'])).toEqual({ error: '--data-dir needs a folder' });
    expect(parseArgs(['--frobnicate'])).toEqual({ error: 'unknown option --frobnicate for tether app-server' });
    expect(parseArgs(['--memory', '--data-dir', 'd'])).toEqual({ error: '--memory and --data-dir cannot be combined' });
    expect(parseArgs(['--jsonrpc=yes'])).toEqual({ error: '--jsonrpc takes no value' });
    expect(parseArgs(['stdio'])).toEqual({ error: 'unexpected argument "stdio"' });
    expect(parseArgs(['--help'])).toEqual({ help: true });
  });
});
