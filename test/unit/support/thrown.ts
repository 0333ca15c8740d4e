/** The error an action throws, for tests that look at it closely. */

/** What `action` throws; fails the test when it throws nothing. */
export function thrownBy(action: () => unknown): Error {
  try {
    action();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected an error, got none");
}
