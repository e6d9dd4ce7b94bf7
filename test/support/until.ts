// Waiting in tests for something another process does: polled, with a bound that only says when
// to give up (a failure names what never happened), never a timing the test asserts.

/**
 * Polls `check` every 50 ms until it answers something other than undefined (a throw counts as
 * not yet); throws after `ms` with `what`, or at once when `gone` names a reason it never will (a
 * process that exited).
 */
export async function until<T>(what: string, ms: number, check: () => Promise<T | undefined>, gone: () => string | undefined = () => undefined): Promise<T> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    const reason = gone();
    if (reason !== undefined) throw new Error(`${what}: never (${reason})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what}: not within ${ms} ms`);
}
