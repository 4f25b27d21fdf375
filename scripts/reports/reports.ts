/**
 * `npm run reports [-- --json] [--limit N]`: recent reports grouped by error and build, with counts, and the
 * 75th percentile of each web vital per route. Reads the server's database (scripts/reports/reportSource.ts).
 */
import type { StoredReport, VitalName } from '../../api/types.ts';
import { visibleText as shown } from '../../core/untrustedText.ts';
import { ReportSourceError, readReports } from './reportSource.ts';

interface ErrorGroup {
  error: string;
  status: number | null;
  buildId: string;
  count: number;
  routes: string[];
  lastSeen: string;
  /** The newest report of the group: `npm run replay -- <id>`. */
  latestId: string;
}

export function summarise(reports: readonly StoredReport[]) {
  const groups = new Map<string, ErrorGroup>();
  const samples = new Map<string, Map<VitalName, number[]>>();
  for (const report of reports) {
    if (report.kind === 'error' && report.error) {
      const error = `${report.error.name}: ${report.error.message}`;
      const key = JSON.stringify([error, report.error.status, report.buildId]);
      const group = groups.get(key);
      if (group) {
        group.count += 1;
        if (!group.routes.includes(report.route.path)) group.routes.push(report.route.path);
      } else {
        groups.set(key, {
          error,
          status: report.error.status,
          buildId: report.buildId,
          count: 1,
          routes: [report.route.path],
          lastSeen: report.receivedAt,
          latestId: report.id,
        });
      }
    }
    for (const vital of report.vitals ?? []) {
      const route = report.route.name ?? report.route.path;
      const byName = samples.get(route) ?? new Map<VitalName, number[]>();
      byName.set(vital.name, [...(byName.get(vital.name) ?? []), vital.value]);
      samples.set(route, byName);
    }
  }
  const vitals = [...samples].map(([route, byName]) => ({
    route,
    p75: Object.fromEntries(
      [...byName].map(([name, values]) => [
        name,
        { value: percentile(values, 0.75), samples: values.length },
      ]),
    ) as Partial<Record<VitalName, { value: number; samples: number }>>,
  }));
  return {
    reports: reports.length,
    errors: [...groups.values()].sort((a, b) => b.count - a.count || b.lastSeen.localeCompare(a.lastSeen)),
    vitals,
  };
}

/**
 * JSON for a terminal: JSON.stringify escapes C0 controls in strings but leaves DEL, C1 controls, the line and
 * paragraph separators and bidi controls raw; these become `\uXXXX` escapes too (the same JSON when parsed).
 */
export function terminalJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    /[\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Nearest-rank percentile, as CrUX reports p75. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? Number.NaN;
}

const args = process.argv.slice(2);
if (import.meta.url === `file://${process.argv[1]}`) {
  const limitAt = args.indexOf('--limit');
  const limit = limitAt === -1 ? 1000 : Number(args[limitAt + 1]);
  try {
    if (!Number.isInteger(limit) || limit < 1) throw new ReportSourceError('--limit takes a whole number.');
    const reports = await readReports({ limit });
    const summary = summarise(reports);
    if (args.includes('--json')) {
      console.log(terminalJson({ ...summary, recent: reports }));
    } else {
      console.log(`${summary.reports} recent reports.`);
      console.log(summary.errors.length ? '\nErrors (by error and build):' : '\nNo errors reported.');
      // Every line from a report is a stranger's text: shown with its controls and bidi characters escaped.
      for (const group of summary.errors) {
        console.log(shown(`  ${String(group.count).padStart(5)}×  ${group.status ?? '---'} ${group.error}`));
        console.log(
          shown(
            `         build ${group.buildId}, on ${group.routes.slice(0, 5).join(', ')}; last ${group.lastSeen}` +
              ` (npm run replay -- ${group.latestId})`,
          ),
        );
      }
      console.log(
        summary.vitals.length
          ? '\nWeb vitals, 75th percentile per route, (n) samples it rests on. Self-reported: any visitor can ' +
              'send made-up figures; the API takes at most a few samples per address and route per window.'
          : '\nNo web vitals reported.',
      );
      for (const { route, p75 } of summary.vitals) {
        const parts = Object.entries(p75).map(
          ([name, { value, samples }]) =>
            `${name} ${name === 'CLS' ? value.toFixed(3) : `${Math.round(value)} ms`} (${samples})`,
        );
        console.log(shown(`  ${route.padEnd(20)} ${parts.join('  ')}`));
      }
    }
  } catch (error) {
    if (error instanceof ReportSourceError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
}
