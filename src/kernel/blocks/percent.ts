/**
 * The one way a percentage reads: a whole number, a space, the sign ("48 %", "0 %"), as the progress
 * lines, the digest and the reclaim rounds write it, so a view never shows "48 %" beside "0% done".
 */
export function percentText(n: number): string {
  return `${Math.round(n)} %`;
}
