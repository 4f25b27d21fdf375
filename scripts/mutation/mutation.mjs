// `npm run test:mutation`: Stryker over machines/ (stryker.config.mjs), then one summary line with the score.
// Extra arguments go to `stryker run` (e.g. `npm run test:mutation -- --mutate machines/returnTo.ts`).
// `--ci` (in .ci/run): the incremental run only when the committed incremental file holds results for every
// file of machines/; otherwise the run would test most mutants from scratch (hours on 2 cores), so it says so
// and stops without running.
// Kills are split by what failed first: a frozen-file comparison (`frozen …` messages of tests/support/
// frozenPaths.ts) or a behaviour assertion (hand-written tests and the per-state invariants of path tests).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { explain, REASONS_DIR, readReasons, survivorsOf } from './mutation-survivors.mjs';

const REPORT = 'reports/mutation/mutation.json';
const INCREMENTAL = 'stryker-incremental.json';
const args = process.argv.slice(2);
const ci = args.includes('--ci');

if (ci) {
  const sources = readdirSync('machines')
    .filter((name) => name.endsWith('.ts'))
    .map((name) => `machines/${name}`);
  const baseline = existsSync(INCREMENTAL)
    ? Object.keys(JSON.parse(readFileSync(INCREMENTAL, 'utf8')).files)
    : [];
  const missing = sources.filter((file) => !baseline.includes(file));
  if (missing.length > 0) {
    console.log(
      `mutation: SKIPPED in CI — ${INCREMENTAL} has no results for ${missing.length} of ${sources.length} files ` +
        `(${missing.join(', ')}); run \`npm run test:mutation\` over all of machines/ and commit ${INCREMENTAL} first.`,
    );
    process.exit(0);
  }
}

const started = Date.now();
const run = spawnSync('npx', ['stryker', 'run', ...args.filter((arg) => arg !== '--ci')], {
  stdio: 'inherit',
});
const minutes = ((Date.now() - started) / 60_000).toFixed(1);

if (!existsSync(REPORT)) {
  console.error(`mutation: no report at ${REPORT}; Stryker exited with ${run.status}`);
  process.exit(run.status || 1);
}
const report = JSON.parse(readFileSync(REPORT, 'utf8'));
const threshold = report.thresholds?.break ?? report.config?.thresholds?.break ?? 85;

const count = (mutants) => {
  const tally = { behaviour: 0, frozen: 0, timeout: 0, survived: 0, noCoverage: 0, ignored: 0, errors: 0 };
  for (const mutant of mutants) {
    if (mutant.status === 'Killed') {
      if (/^frozen/.test(mutant.statusReason ?? '')) tally.frozen += 1;
      else tally.behaviour += 1;
    } else if (mutant.status === 'Timeout') tally.timeout += 1;
    else if (mutant.status === 'Survived') tally.survived += 1;
    else if (mutant.status === 'NoCoverage') tally.noCoverage += 1;
    else if (mutant.status === 'Ignored') tally.ignored += 1;
    else tally.errors += 1;
  }
  const detected = tally.behaviour + tally.frozen + tally.timeout;
  const valid = detected + tally.survived + tally.noCoverage;
  return { ...tally, detected, valid, score: valid === 0 ? 100 : (100 * detected) / valid };
};

const files = Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b));
for (const [name, file] of files) {
  const t = count(file.mutants);
  console.log(
    `mutation: ${name.padEnd(32)} ${t.score.toFixed(1).padStart(5)} % of ${String(t.valid).padStart(4)} (behaviour ${t.behaviour}, frozen ${t.frozen}, timeout ${t.timeout}, survived ${t.survived}, no coverage ${t.noCoverage})`,
  );
}
const all = count(files.flatMap(([, file]) => file.mutants));
console.log(
  `mutation score ${all.score.toFixed(2)} % on ${files.length} file(s) of machines/ (threshold ${threshold} %): ` +
    `${all.detected} of ${all.valid} mutants detected — ${all.behaviour} killed first by a behaviour assertion, ` +
    `${all.frozen} first by a frozen snapshot, ${all.timeout} timed out; ${all.survived} survived, ` +
    `${all.noCoverage} not covered; ${minutes} min; report: ${REPORT.replace('.json', '.html').replace('mutation.html', 'index.html')}`,
);
if (all.score < threshold) {
  console.error(`mutation: the score is below the threshold of ${threshold} %`);
  process.exit(1);
}
// Every mutant left alive needs a recorded reason (scripts/mutation/mutation-survivors.mjs); in CI a new one fails the run.
const unexplained = explain(survivorsOf(report), readReasons()).filter(
  (survivor) => survivor.reason === null,
);
if (unexplained.length > 0) {
  console.error(
    `mutation: ${unexplained.length} surviving mutant(s) have no reason in ${REASONS_DIR}/ ` +
      '(`node scripts/mutation/mutation-survivors.mjs --todo machines/<file>.ts` lists them): kill each with a test, or ' +
      'record why it is equivalent or harmless',
  );
  if (ci) process.exit(1);
}
process.exit(run.status ?? 1);
