/**
 * Trusted input for page actions: which actions get it and when (the user's setting, the debugger attached), and the
 * keys and text a trusted page_type sends: real key presses for what is on a US keyboard, committed text for the
 * rest, and a paste's speed past the first characters.
 */
import { errorMessage } from '@tether/protocol';
import type { AgentAction } from '../../shared/agent-contract';
import { parseKey } from '../../content/keys';
import { cdpKey } from '../input/cdp-keys';
import { TrustedInputUnavailable } from '../input/debugger-session';
import { type InputLayer, type InputMode, NO_DEBUGGER_API, type TrustedStep } from '../input/input-layer';

/** Whether the worker performs `a` itself when trusted input is on (the rest stay the agent's: values, options). */
export function trustedKind(a: AgentAction): boolean {
  return ['click', 'hover', 'press', 'type', 'drag', 'upload'].includes(a.kind);
}

/** The input `action` on the page at `url` gets: trusted once the debugger is ready, else synthetic saying why. */
export async function inputMode(
  input: InputLayer | undefined,
  tabId: number,
  url: string | undefined,
  action: AgentAction,
): Promise<InputMode> {
  if (!input || !trustedKind(action)) return { trusted: false, why: NO_DEBUGGER_API };
  const mode = input.mode(tabId, originOf(url));
  return mode.trusted ? input.ready(tabId).then(() => mode, fallback) : mode;
}

/** The line that says how the input was made. */
export function inputLine(mode: InputMode): string {
  return mode.trusted ? 'Input: trusted (the page saw real input).' : `Input: synthetic (${mode.why}).`;
}

/** Characters typed key by key with trusted input; the rest of a longer text is inserted at once (a paste's speed). */
const TRUSTED_KEYS_MAX = 200;

/**
 * The steps of a trusted `type`: select-all and Delete to clear, the text, Enter to submit. The text goes key by key
 * when the page could tell (`keys`); into a field nothing listens to for keys or per-character input it is committed
 * a line at once (Input.insertText: the same trusted beforeinput and input, the same value, one command instead of
 * two key events a character, each a round trip to the renderer: 29-107 ms for 12 characters on a loaded machine
 * against 5-15 ms), with Enter pressed between lines.
 */
export function typeSteps(action: Extract<AgentAction, { kind: 'type' }>, keys = true): TrustedStep[] {
  const steps: TrustedStep[] = [];
  if (action.clear) steps.push({ kind: 'press', chord: parseKey('ControlOrMeta+a') }, press('Delete'));
  const chars = [...action.text];
  if (!keys) {
    for (const [i, line] of action.text.split('\n').entries()) {
      if (i > 0) steps.push(press('Enter'));
      if (line !== '') steps.push({ kind: 'text', text: line });
    }
    if (action.submit) steps.push(press('Enter'));
    return steps;
  }
  for (const c of chars.slice(0, TRUSTED_KEYS_MAX)) {
    const step: TrustedStep = c === '\n' ? press('Enter') : charStep(c);
    // A run of character keys goes as one step; Enter (which may send a form) and committed text stay apart.
    const last = steps.at(-1);
    if (step.kind === 'press' && c !== '\n' && last?.kind === 'keys')
      steps[steps.length - 1] = { kind: 'keys', chords: [...last.chords, step.chord] };
    else steps.push(step.kind === 'press' && c !== '\n' ? { kind: 'keys', chords: [step.chord] } : step);
  }
  if (chars.length > TRUSTED_KEYS_MAX) steps.push({ kind: 'text', text: chars.slice(TRUSTED_KEYS_MAX).join('') });
  if (action.submit) steps.push(press('Enter'));
  return steps;
}

function charStep(c: string): TrustedStep {
  // A character on no US key (é, 漢, an emoji) is committed as an input method would; the rest are real key presses.
  try {
    const chord = parseKey(c);
    if (cdpKey(chord).windowsVirtualKeyCode !== 0) return { kind: 'press', chord };
  } catch {
    // Not a key name at all: committed as text below.
  }
  return { kind: 'text', text: c };
}

function press(key: string): TrustedStep {
  return { kind: 'press', chord: parseKey(key) };
}

function fallback(error: unknown): InputMode {
  if (error instanceof TrustedInputUnavailable) return { trusted: false, why: error.message };
  return { trusted: false, why: `trusted input failed to start: ${errorMessage(error)}` };
}

function originOf(url: string | undefined): string {
  try {
    return url ? new URL(url).origin : '';
  } catch {
    return '';
  }
}
