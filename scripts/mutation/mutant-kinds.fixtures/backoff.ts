/** The wait before the next check after `failures` failed ones: doubling from 1 s, never over a minute. */
export function nextDelay(failures: number): number {
  return Math.min(1_000 * 2 ** failures, 60_000);
}
