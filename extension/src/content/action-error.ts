/** An action the element cannot take; the message names the element and says what to do instead. */
export class ActionError extends Error {
  override readonly name = 'ActionError';
}
