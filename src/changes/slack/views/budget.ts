/**
 * Slack waits 3 s for a view_submission's answer, and inline errors can only be given in that answer.
 * A pre-check that needs the licensing API races this budget; when it loses, the check is skipped and
 * the API's own rule (the same one) judges the write instead.
 */
export async function withinBudget<T>(work: Promise<T>, ms: number): Promise<{ value: T } | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([work.then((value) => ({ value })), late]);
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
    // A late failure is nobody's business any more; keep it from becoming an unhandled rejection.
    work.catch(() => undefined);
  }
}
