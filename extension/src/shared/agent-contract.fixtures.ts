/** Test fixtures in the shapes of agent-contract.ts, shared by the worker's tests and shared/'s. */
import type { ElementFacts } from './agent-contract';

/** An element on https://a.example with no risk, unless `over` (or `over.risk`, merged) says otherwise. */
export const facts = (
  role: string,
  name: string,
  over: Partial<Omit<ElementFacts, 'risk'>> & { risk?: Partial<ElementFacts['risk']> } = {},
): ElementFacts => ({
  tag: 'input',
  origin: 'https://a.example',
  disabled: false,
  ...over,
  role,
  name,
  risk: {
    password: false,
    payment: false,
    destructive: false,
    submitsForm: false,
    formHasSecret: false,
    download: false,
    ...over.risk,
  },
});
