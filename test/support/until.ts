/**
 * Polls `done` until it holds, or fails naming `what` it waited for. The one polling helper of the
 * tests: for what a process or an app does in its own time (a log line, a recorded call, a file).
 */
export async function until(
  what: string,
  done: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
  everyMs = 20,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
