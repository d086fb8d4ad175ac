/** Thrown inside the page tools for a ref that can no longer be used; becomes a failed tool result. */
export class StaleRefError extends Error {
  override readonly name = 'StaleRefError';
}
