import { CLIENT_REQUEST_METHODS } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import { capabilitiesOf } from './capabilities';

const all = {
  thread: true,
  turn: true,
  itemStream: true,
  approvalRequests: true,
  eventReplay: true,
  schemaExport: true,
  steer: true,
  fork: true,
  archive: true,
  modelList: true,
  clientTools: true,
};

describe('capabilitiesOf', () => {
  it('announces everything for a backend that implements every client request (the app-server)', () => {
    expect(capabilitiesOf(CLIENT_REQUEST_METHODS, { approvalRequests: true, clientTools: true })).toEqual(all);
  });

  it('announces what the Codex and ACP method tables implement, and nothing they lack', () => {
    const codex = CLIENT_REQUEST_METHODS.filter((m) => m !== 'schema/export' && m !== 'thread/history/read');
    expect(capabilitiesOf(codex, { approvalRequests: true, clientTools: true })).toEqual({
      ...all,
      schemaExport: false,
    });
    const acp = [
      'thread/start',
      'thread/read',
      'thread/resume',
      'thread/list',
      'thread/archive',
      'thread/unarchive',
      'thread/unsubscribe',
      'turn/start',
      'turn/interrupt',
      'approval/resolve',
    ];
    expect(capabilitiesOf(acp, { approvalRequests: true, clientTools: false })).toEqual({
      ...all,
      schemaExport: false,
      steer: false,
      fork: false,
      modelList: false,
      clientTools: false,
    });
  });

  it('says no thread, turn or replay support when those rows are missing', () => {
    expect(capabilitiesOf(['initialize', 'model/list'], { approvalRequests: false, clientTools: false })).toMatchObject(
      {
        thread: false,
        turn: false,
        itemStream: false,
        eventReplay: false,
        archive: false,
        modelList: true,
      },
    );
  });
});
