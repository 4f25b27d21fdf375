// src/ui/format.ts: the same strings as Intl's English euro and long-date formats, for every input.
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { formatLongDate, formatMoney } from '../../src/ui/format';

const intlMoney = new Intl.NumberFormat('en', {
  style: 'currency',
  currency: 'EUR',
  maximumFractionDigits: 0,
});
const intlDate = new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' });

describe('formatMoney', () => {
  it('writes euros without cents, with thousands separators', () => {
    expect(formatMoney(0)).toBe('€0');
    expect(formatMoney(999)).toBe('€999');
    expect(formatMoney(12_500)).toBe('€12,500');
    expect(formatMoney(1_234_567)).toBe('€1,234,567');
    expect(formatMoney(-3)).toBe('-€3');
  });

  it('rounds half away from zero', () => {
    expect([2.5, 2.49, -2.5, -0.4, 999.5].map(formatMoney)).toEqual(['€3', '€2', '-€3', '-€0', '€1,000']);
  });

  it('equals Intl for any number, including huge ones, -0, NaN and infinities', () => {
    for (const value of [-0, Number.NaN, Number.POSITIVE_INFINITY, -1e21, 2 ** 53, 2 ** 53 + 2]) {
      expect(formatMoney(value), String(value)).toBe(intlMoney.format(value));
    }
    fc.assert(
      fc.property(
        fc.oneof(fc.integer(), fc.double(), fc.maxSafeInteger(), fc.integer({ min: 0, max: 10_000 })),
        (value) => {
          expect(formatMoney(value)).toBe(intlMoney.format(value));
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

describe('formatLongDate', () => {
  it('writes the UTC day as Month day, year', () => {
    expect(formatLongDate(new Date('2026-11-23T00:00:00Z'))).toBe('November 23, 2026');
    expect(formatLongDate(new Date('2026-01-01T23:59:59-05:00'))).toBe('January 2, 2026');
  });

  it('equals Intl for any valid date, years before 1000 and after 9999 included', () => {
    fc.assert(
      fc.property(fc.date({ noInvalidDate: true }), (date) => {
        expect(formatLongDate(date)).toBe(intlDate.format(date));
      }),
      { numRuns: 2_000 },
    );
  });

  it('throws on an invalid date, as Intl does', () => {
    expect(() => formatLongDate(new Date(Number.NaN))).toThrow(RangeError);
  });
});

describe('no Intl formatter for the usual values', () => {
  // The first Intl formatter of a page loads the locale data (13-21 ms of main thread in Chromium): money that
  // rounds to a safe integer and dates of years 1000 to 9999 never create one.
  it('formats plain amounts and dates, the edge years included, without constructing Intl', async () => {
    vi.resetModules();
    const numberFormat = vi.spyOn(Intl, 'NumberFormat');
    const dateFormat = vi.spyOn(Intl, 'DateTimeFormat');
    const format = await import('../../src/ui/format');
    expect(format.formatMoney(12_500)).toBe('€12,500');
    expect(format.formatMoney(-3.4)).toBe('-€3');
    expect(format.formatLongDate(new Date(Date.UTC(1000, 0, 1)))).toBe('January 1, 1000');
    expect(format.formatLongDate(new Date(Date.UTC(2026, 10, 23)))).toBe('November 23, 2026');
    expect(format.formatLongDate(new Date(Date.UTC(9999, 11, 31)))).toBe('December 31, 9999');
    expect(numberFormat).not.toHaveBeenCalled();
    expect(dateFormat).not.toHaveBeenCalled();
  });
});
