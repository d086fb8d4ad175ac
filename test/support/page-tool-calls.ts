/**
 * Driving the page tools from a side panel as a test: `/tool NAME {args}` through the scripted model, the approval
 * cards of page tools, and refs read out of snapshot text by role and name.
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { completedAnswers, sendPrompt } from './extension-pages';

/** Sends `/tool NAME {args}` and returns the text of the answer once it completed. */
export async function tool(
  panel: Page,
  name: string,
  args: unknown,
  decide?: (panel: Page) => Promise<void>,
): Promise<string> {
  const before = await completedAnswers(panel).count();
  await sendPrompt(panel, `/tool ${name} ${JSON.stringify(args)}`);
  if (decide) await decide(panel);
  await expect.poll(() => completedAnswers(panel).count(), { timeout: 30_000 }).toBe(before + 1);
  return (await completedAnswers(panel).last().locator('.body').textContent()) ?? '';
}

/** The card of a pending page tool approval. */
export function card(panel: Page, toolName: string) {
  return panel.locator(`.approval[data-tool="${toolName}"]`);
}

/** Clicks `choice` on the card of `toolName`, once it shows. */
export function choose(toolName: string, choice: string) {
  return async (panel: Page): Promise<void> => {
    await card(panel, toolName).locator(`button[data-choice="${choice}"]`).click({ timeout: 30_000 });
  };
}

/** The ref of the line that shows `role "name"` in a snapshot or action result. */
export function refOf(text: string, role: string, name: string): string {
  const line = text.split('\n').find((l) => l.includes(`${role} ${JSON.stringify(name)}`) && l.includes('[ref='));
  const ref = line ? /\[ref=((?:f\d+)?e\d+)\]/.exec(line)?.[1] : undefined;
  if (!ref) throw new Error(`No ref for ${role} "${name}" in:\n${text}`);
  return ref;
}
