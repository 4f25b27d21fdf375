/**
 * Money and dates as the pages show them, in English: `€12,500`, `November 23, 2026`.
 *
 * These are exactly what `Intl.NumberFormat('en', { style: 'currency', currency: 'EUR', maximumFractionDigits:
 * 0 })` and `Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' })` return (tests/ui/format.test.ts
 * checks that for any input), without creating an `Intl` object for the usual values: the first `Intl`
 * formatter of a page loads the locale data, which costs Chromium 13-21 ms of main thread (four times that on
 * a throttled phone), and the campaign cards are hydrated in the first load. Values outside the plain case
 * (fractions that round to another integer are fine; huge numbers, NaN, years outside 1000-9999) are handed
 * to `Intl` itself, created on first use.
 */

let currencyFormat: Intl.NumberFormat | null = null;
let dateFormat: Intl.DateTimeFormat | null = null;

/** Thousands separated by commas: `12500` -> `12,500`. Only for non-negative safe integers. */
function groupThousands(integer: number): string {
  return String(integer).replace(/\B(?=(\d{3})+$)/g, ',');
}

/** Euros without cents, rounded half away from zero as `Intl` does: `€12,500`, `-€3`. */
export function formatMoney(amount: number): string {
  const rounded = Math.round(Math.abs(amount));
  if (!Number.isSafeInteger(rounded)) {
    currencyFormat ??= new Intl.NumberFormat('en', {
      style: 'currency',
      currency: 'EUR',
      maximumFractionDigits: 0,
    });
    return currencyFormat.format(amount);
  }
  const negative = amount < 0 || Object.is(amount, -0);
  return `${negative ? '-' : ''}€${groupThousands(rounded)}`;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** A date's UTC day in English long form: `November 23, 2026`. An invalid date throws, as `Intl` does. */
export function formatLongDate(date: Date): string {
  const year = date.getUTCFullYear();
  // Stryker disable next-line ConditionalExpression: Years above 9999 then take the fast path instead of Intl; both write `January 1, 10000` (`${month} ${day}, ${year}` is Intl's en long form for any year from 1000 up, to the Date limit 275760: checked with Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' }), and tests/ui/format.test.ts compares the two for random dates past 9999). The bound only keeps Intl for years it was never measured on; no output changes.
  if (!(year >= 1000 && year <= 9999)) {
    dateFormat ??= new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' });
    return dateFormat.format(date);
  }
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${year}`;
}
