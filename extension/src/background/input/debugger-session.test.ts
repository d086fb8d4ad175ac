import { describe, expect, it } from 'vitest';
import { DebuggerSessions, TrustedInputUnavailable } from './debugger-session';
import { fakeDebugger, manualTimers } from './fake-debugger';

function sessions() {
  const fake = fakeDebugger();
  const timers = manualTimers();
  return { fake, timers, s: new DebuggerSessions(fake.api, timers) };
}

describe('DebuggerSessions', () => {
  it('attaches on the first command only, and detaches when the turn ends', async () => {
    const { fake, s } = sessions();
    await s.send(7, 'Input.dispatchMouseEvent', { type: 'mouseMoved', x: 1, y: 2 });
    await s.send(7, 'Input.dispatchMouseEvent', { type: 'mouseMoved', x: 3, y: 4 });
    expect(fake.state.attaches).toBe(1);
    expect(s.isAttached(7)).toBe(true);
    await s.turnEnded(7);
    expect(fake.state.attached.has(7)).toBe(false);
    expect(fake.state.detaches).toBe(1);
  });

  it('attaches again after a navigation dropped the attachment, whether Chrome said so or not', async () => {
    const { fake, s } = sessions();
    await s.send(7, 'A');
    fake.drop(7, 'target_closed');
    await s.send(7, 'B');
    fake.lose(7);
    await s.send(7, 'C');
    expect(fake.state.attaches).toBe(3);
    expect(fake.state.commands.map((c) => c.method)).toEqual(['A', 'B', 'C']);
  });

  it('refuses trusted input for the rest of the turn once the user cancels the debugging bar, and allows it next turn', async () => {
    const { fake, s } = sessions();
    await s.send(7, 'A');
    fake.drop(7, 'canceled_by_user');
    expect(s.refusal(7)).toMatch(/cancelled Chrome's "started debugging this browser" bar/);
    await expect(s.send(7, 'B')).rejects.toBeInstanceOf(TrustedInputUnavailable);
    expect(fake.state.attaches).toBe(1);
    await s.turnEnded(7);
    expect(s.refusal(7)).toBeUndefined();
    await s.send(7, 'C');
    expect(fake.state.attaches).toBe(2);
  });

  it('says DevTools when Chrome refuses to attach because another debugger is there, and does not retry in that turn', async () => {
    const { fake, s } = sessions();
    fake.state.refuseAttach = 'Another debugger is already attached to the tab with id: 7.';
    const error = await s.send(7, 'A').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TrustedInputUnavailable);
    expect(String(error)).toMatch(/DevTools/);
    await expect(s.ensure(7)).rejects.toThrow(/DevTools/);
    expect(fake.state.attaches).toBe(1);
  });

  it('detaches after the idle timeout when no turn end comes', async () => {
    const { fake, timers, s } = sessions();
    await s.send(7, 'A');
    expect(timers.pending()).toBe(1);
    timers.fire();
    await Promise.resolve();
    expect(fake.state.attached.has(7)).toBe(false);
    expect(s.isAttached(7)).toBe(false);
  });

  it('shares one attach between commands sent at once', async () => {
    const { fake, s } = sessions();
    await Promise.all([s.send(7, 'A'), s.send(7, 'B')]);
    expect(fake.state.attaches).toBe(1);
  });
});
