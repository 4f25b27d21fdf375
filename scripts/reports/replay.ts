/**
 * `npm run replay -- <report id | file.json> [--inspect] [--test]`: replays a report's events through the app
 * machine in Node (tests/support/replay.ts, the path tests' fakes), prints each state it passes through, and
 * says whether it ends in the state the report recorded. Exit code 0 when it does, 1 when it does not.
 *   --inspect  streams the run to the Stately inspector (development only; opens a browser tab)
 *   --test     writes tests/replays/<id>.test.ts (+ .json), a regression test that fails until the bug is fixed;
 *              only for a replay that reaches the reported state (otherwise the test would pass from the start)
 * A report is a stranger's text: everything printed from it shows control and bidi characters as escapes
 * (core/untrustedText.ts visibleText), and the generated test holds none of it (tests/support/replay.ts).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { reportShapeProblem } from '../../api/reports.ts';
import type { ReportBody, StoredReport } from '../../api/types.ts';
import { visibleText as shown } from '../../core/untrustedText.ts';
import { describeState, regressionTestSource, replayName, replayReport } from '../../tests/support/replay.ts';
import { ReportSourceError, readReports } from './reportSource.ts';

const args = process.argv.slice(2);
const flags = new Set(args.filter((arg) => arg.startsWith('--')));
const target = args.find((arg) => !arg.startsWith('--'));
if (!target) {
  console.error('Usage: npm run replay -- <report id | file.json> [--inspect] [--test]');
  process.exit(2);
}

async function load(which: string): Promise<ReportBody & { id?: string }> {
  if (which.endsWith('.json') || existsSync(which)) {
    const saved: unknown = JSON.parse(readFileSync(which, 'utf8'));
    // A file is anyone's text: checked as the API checks what it stores, before the replay relies on its fields.
    const problem = reportShapeProblem(saved);
    if (problem) throw new ReportSourceError(shown(`${which} is not a report: ${problem}.`));
    return saved as ReportBody;
  }
  const [report] = await readReports({ limit: 1, id: which });
  if (!report) throw new ReportSourceError(`No report with id ${which}.`);
  return report as StoredReport;
}

try {
  const report = await load(target);
  let inspect: ((event: import('xstate').InspectionEvent) => void) | undefined;
  if (flags.has('--inspect')) {
    const { createSkyInspector } = await import('@statelyai/inspect');
    inspect = createSkyInspector({ onerror: (error) => console.error(`[inspector] ${error.message}`) })
      .inspect.next;
  }
  console.log(
    shown(
      `Report ${report.id ?? target}: ${report.kind} on ${report.route.path} (${report.route.name ?? 'no route'}), build ${report.buildId}`,
    ),
  );
  if (report.error)
    console.log(shown(`  ${report.error.status ?? '-'} ${report.error.name}: ${report.error.message}`));
  const result = replayReport(report, inspect ? { inspect } : {});
  if (result.partial) {
    // A number: the API stored it so, and a saved file is checked for the same shape.
    console.log(
      `  (the report dropped its ${report.eventsDropped} oldest events: the replay starts mid-way)`,
    );
  }
  console.log(`  start    ${shown(describeState(result.initial))}`);
  for (const step of result.steps) {
    console.log(`  ${String(step.index + 1).padStart(3)}. ${shown(step.event)}`);
    console.log(`         ${shown(describeState(step.value))}`);
    if (step.problem) console.log(`         ! ${shown(step.problem)}`);
  }
  console.log(`  reported ${shown(describeState(report.state))}`);
  console.log(
    result.matches
      ? 'The replay ends in the reported state.'
      : 'The replay does NOT end in the reported state.',
  );
  if (flags.has('--test') && !result.matches) {
    console.error(
      'No regression test written: the replay does not reach the reported state, so the test would pass ' +
        'before any fix (a report the machine cannot reproduce, or one made by hand).',
    );
  } else if (flags.has('--test')) {
    const name = replayName(report.id ?? path.basename(target, '.json'));
    const dir = path.join(import.meta.dirname, '..', '..', 'tests', 'replays');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `${name}.json`), `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(path.join(dir, `${name}.test.ts`), regressionTestSource(name));
    console.log(`Wrote tests/replays/${name}.test.ts: npx vitest run tests/replays/${name}.test.ts`);
  }
  if (!flags.has('--inspect')) process.exit(result.matches ? 0 : 1);
  // The inspector needs the process alive to deliver what it was sent.
  console.log('Streaming to the Stately inspector; press Ctrl+C to end.');
} catch (error) {
  if (error instanceof ReportSourceError || error instanceof SyntaxError) {
    // A SyntaxError from JSON.parse quotes the file's text around the fault; our own messages hold newlines.
    console.error(error instanceof SyntaxError ? shown(error.message) : error.message);
    process.exit(2);
  }
  throw error;
}
