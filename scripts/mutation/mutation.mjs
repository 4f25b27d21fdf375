// `npm run test:mutation`: Stryker over machines/ (stryker.machines.config.mjs), then over the code that talks to
// the browser (stryker.adapters.config.mjs: src/platform, the page registry, src/ui/format.ts), then over the demo
// API (stryker.api.config.mjs), then the hand-written mutant kinds Stryker lacks (mutant-kinds.mjs, after its own
// tests). Prints a score per file and per folder, and a summary line per run. Everything it reads and keeps is in
// this folder (runs.mjs says where).
//   --ci               (in .ci/run) runs no mutant: checks the committed results (baseline/stryker.<run>.json,
//                      baseline/kinds.json) — each folder's score, every survivor's reason — and lists the files
//                      changed since they were tested or never tested. A mutant costs seconds to minutes on 2 cores,
//                      and a changed test re-runs every mutant it covers: after one round of merges, 1,145 of the
//                      machines' mutants alone, hours here. Sessions refresh the results (a run without --ci) and
//                      commit them with a reason for each new survivor.
//   --full             every mutant again (`--force`), static mutants included (MUTATION_STATIC=1);
//                      the nightly-style run whose results are committed as CI's baseline.
//   --only machines | --only adapters | --only api | --only kinds   one part.
// Other arguments go to `stryker run` (e.g. `-- --only machines --mutate core/returnTo.ts`).
// Kills are split by what failed first: a frozen-file comparison (`frozen …` messages of tests/support/
// frozenPaths.ts) or a behaviour assertion (hand-written tests and the per-state invariants of path tests).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { explain, REASONS_DIR, readReasons, survivorsOf } from './mutation-survivors.mjs';
import { HOME, RUNS } from './runs.mjs';

/** The folders scored apart; each must reach FOLDER_THRESHOLD, all together OVERALL_THRESHOLD. */
const FOLDERS = ['machines', 'core', 'src/platform', 'src/pages', 'src/ui', 'api'];
const FOLDER_THRESHOLD = 85;
const OVERALL_THRESHOLD = 90;

const args = process.argv.slice(2);
const ci = args.includes('--ci');
const full = args.includes('--full');
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? args[onlyAt + 1] : null;
const strykerArgs = args.filter(
  (arg, index) => !['--ci', '--full', '--only'].includes(arg) && !(onlyAt >= 0 && index === onlyAt + 1),
);
if (full) strykerArgs.push('--force');

/** The TypeScript sources a run mutates. */
function sourcesOf(roots) {
  const files = [];
  const visit = (path) => {
    if (!existsSync(path)) return;
    if (statSync(path).isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry));
    else if (path.endsWith('.ts') && !path.endsWith('.d.ts')) files.push(path);
  };
  for (const root of roots) visit(root);
  return files.sort();
}

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

const tally = (t) =>
  `(behaviour ${t.behaviour}, frozen ${t.frozen}, timeout ${t.timeout}, survived ${t.survived}, no coverage ${t.noCoverage}${t.ignored ? `, static left out ${t.ignored}` : ''})`;

let failed = false;
const reports = [];
const parts = only ? [only] : ['machines', 'adapters', 'api', 'kinds'];

for (const name of parts.filter((part) => part in RUNS)) {
  const run = RUNS[name];
  const runArgs = [...strykerArgs];
  if (ci) {
    reports.push(committedResults(name, run));
    continue;
  }
  // A report left by an earlier run must not stand in for this one if Stryker stops before writing its own.
  rmSync(run.report, { force: true });
  const started = Date.now();
  const result = spawnSync('npx', ['stryker', 'run', run.config, ...runArgs], {
    stdio: 'inherit',
    env: full ? { ...process.env, MUTATION_STATIC: '1' } : process.env,
  });
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  if (!existsSync(run.report)) {
    console.error(`mutation: ${name}: no report at ${run.report}; Stryker exited with ${result.status}`);
    process.exit(result.status || 1);
  }
  if (result.status !== 0) failed = true;
  const report = JSON.parse(readFileSync(run.report, 'utf8'));
  reports.push(report);
  const files = Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b));
  for (const [file, { mutants }] of files)
    console.log(
      `mutation: ${file.padEnd(32)} ${count(mutants).score.toFixed(1).padStart(5)} % of ${String(count(mutants).valid).padStart(4)} ${tally(count(mutants))}`,
    );
  const all = count(files.flatMap(([, file]) => file.mutants));
  console.log(
    `mutation score ${all.score.toFixed(2)} % on ${files.length} file(s) of ${run.roots.join(', ')}: ` +
      `${all.detected} of ${all.valid} mutants detected — ${all.behaviour} killed first by a behaviour assertion, ` +
      `${all.frozen} first by a frozen snapshot, ${all.timeout} timed out; ${all.survived} survived, ` +
      `${all.noCoverage} not covered; ${minutes} min; report: ${run.report.replace('mutation.json', 'index.html')}`,
  );
}

/**
 * A run's committed results as a report, for CI: the files whose source is still what was tested; the others are
 * listed as changed, and left out until a session's run refreshes them.
 */
function committedResults(name, run) {
  const baseline = JSON.parse(readFileSync(run.incremental, 'utf8'));
  const current = new Set(sourcesOf(run.roots));
  const files = {};
  const changed = [];
  for (const [file, entry] of Object.entries(baseline.files)) {
    if (!current.has(file)) continue;
    if (readFileSync(file, 'utf8') === entry.source) files[file] = entry;
    else changed.push(file);
  }
  const untested = [...current].filter((file) => !(file in baseline.files));
  console.log(
    `mutation: ${name}: the committed results of ${Object.keys(files).length} file(s), checked, not re-run in CI` +
      (changed.length > 0 ? `; changed since, left out: ${changed.join(', ')}` : '') +
      (untested.length > 0 ? `; never tested: ${untested.join(', ')}` : '') +
      (changed.length + untested.length > 0
        ? `; \`npm run test:mutation -- --only ${name}\` refreshes them`
        : ''),
  );
  for (const [file, { mutants }] of Object.entries(files).sort(([a], [b]) => a.localeCompare(b)))
    console.log(
      `mutation: ${file.padEnd(32)} ${count(mutants).score.toFixed(1).padStart(5)} % of ${String(count(mutants).valid).padStart(4)} ${tally(count(mutants))}`,
    );
  return { files };
}

if (reports.length > 0) {
  const merged = { files: Object.assign({}, ...reports.map((report) => report.files)) };
  const folderOf = (file) => FOLDERS.find((folder) => file.startsWith(`${folder}/`));
  for (const folder of FOLDERS) {
    const mutants = Object.entries(merged.files)
      .filter(([file]) => folderOf(file) === folder)
      .flatMap(([, file]) => file.mutants);
    if (mutants.length === 0) continue;
    const t = count(mutants);
    const low = t.score < FOLDER_THRESHOLD;
    console.log(
      `mutation: folder ${`${folder}/`.padEnd(14)} ${t.score.toFixed(2).padStart(6)} % of ${t.valid} ${tally(t)}${low ? ` BELOW ${FOLDER_THRESHOLD} %` : ''}`,
    );
    if (low) failed = true;
  }
  const all = count(Object.values(merged.files).flatMap((file) => file.mutants));
  console.log(
    `mutation score ${all.score.toFixed(2)} % overall (thresholds: ${FOLDER_THRESHOLD} % per folder, ${OVERALL_THRESHOLD} % overall)`,
  );
  // The overall threshold is for all the parts together; `--only` one part is held to its folders' threshold.
  if (only === null && all.score < OVERALL_THRESHOLD) {
    console.error(`mutation: the overall score is below ${OVERALL_THRESHOLD} %`);
    failed = true;
  }
  // Every mutant left alive needs a recorded reason (mutation-survivors.mjs); in CI a new one fails the run.
  const unexplained = explain(survivorsOf(merged), readReasons()).filter(
    (survivor) => survivor.reason === null,
  );
  if (unexplained.length > 0) {
    console.error(
      `mutation: ${unexplained.length} surviving mutant(s) have no reason in ${REASONS_DIR}/ ` +
        `(\`node ${HOME}/mutation-survivors.mjs --todo <file>.ts\` lists them): kill each with a test, or ` +
        'record why it is equivalent or harmless',
    );
    if (ci) failed = true;
  }
}

if (parts.includes('kinds')) {
  // The kinds' own tests first: each kind finds its mutant and a test catches it.
  const tested = spawnSync('node', ['--test', `${HOME}/mutant-kinds.test.mjs`], {
    stdio: 'inherit',
  });
  if (tested.status !== 0) failed = true;
  const kinds = spawnSync(
    'node',
    [`${HOME}/mutant-kinds.mjs`, ...(ci ? ['--ci'] : []), ...(full ? ['--force'] : [])],
    { stdio: 'inherit' },
  );
  if (kinds.status !== 0) failed = true;
}

process.exit(failed ? 1 : 0);
