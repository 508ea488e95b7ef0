/** "1 pool", "2 pools", "1 class", "0 seats": a number with its noun in the right form. Pure. */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** A pool is running until its end has passed (an unreadable end counts as running: it is shown, not hidden). */
export function hasEnded(pool: { end: string }, now: Date): boolean {
  const end = Date.parse(pool.end);
  return !Number.isNaN(end) && end <= now.getTime();
}
