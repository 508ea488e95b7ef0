/** Counts turns of the event loop (a setImmediate chain) from now until stopped: how long a piece of work held the loop. */
export function turnCounter(): { now(): number; stop(): void } {
  let turns = 0;
  let on = true;
  const tick = () => {
    turns += 1;
    if (on) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    now: () => turns,
    stop: () => {
      on = false;
    },
  };
}
