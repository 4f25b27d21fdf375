// `npm run test:mutation -- <files or folders>`: Stryker (stryker.config.mjs) over those product files, then their
// score. `npm run test:mutation -- --since <git ref>` mutates the product files changed since that ref (committed
// or not). `--static` also runs the static mutants (code that runs while a module loads), each against every related
// test file: slow. Any other argument starting with `--` goes to `stryker run` (e.g. `--force`, `--concurrency 1`).
// Reports: reports/mutation/ (git-ignored).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

const PRODUCT = ['src', 'machines', 'core', 'api', 'server', 'build'];
const REPORT = 'reports/mutation/mutation.json';

const isSource = (path) => /\.tsx?$/.test(path) && !path.endsWith('.d.ts');
const inProduct = (path) => PRODUCT.some((folder) => path.startsWith(`${folder}/`));

/** The TypeScript sources at `path` (a file, or every source under a folder). */
function sourcesAt(path) {
  if (!existsSync(path)) throw new Error(`mutation: no file or folder ${path}`);
  if (!statSync(path).isDirectory()) return isSource(path) ? [path] : [];
  return readdirSync(path).flatMap((entry) => sourcesAt(join(path, entry)));
}

/** The product sources changed since `ref`: committed, staged, unstaged and untracked. */
function changedSince(ref) {
  const git = (...args) => execFileSync('git', args, { encoding: 'utf8' }).split('\n').filter(Boolean);
  const changed = [
    ...git('diff', '--name-only', '--diff-filter=d', ref, '--'),
    ...git('ls-files', '--others', '--exclude-standard'),
  ];
  return changed.filter((path) => inProduct(path) && isSource(path) && existsSync(path));
}

const args = process.argv.slice(2);
const targets = [];
const strykerArgs = [];
let staticToo = false;
for (let index = 0; index < args.length; index += 1) {
  const arg = args[index];
  if (arg === '--since') {
    const ref = args[index + 1];
    if (!ref) throw new Error('mutation: --since needs a git ref (a branch, a tag or a commit)');
    targets.push(...changedSince(ref));
    index += 1;
  } else if (arg === '--static') staticToo = true;
  else if (arg.startsWith('--')) {
    strykerArgs.push(arg);
    // A value for the option (`--concurrency 1`), unless the next word is another option.
    if (args[index + 1] !== undefined && !args[index + 1].startsWith('--') && !arg.includes('=')) {
      strykerArgs.push(args[index + 1]);
      index += 1;
    }
  } else targets.push(...sourcesAt(arg.replace(/\/$/, '')));
}

const files = [...new Set(targets)].sort();
if (files.length === 0) {
  console.error(
    args.length === 0
      ? 'usage: npm run test:mutation -- <files or folders> | --since <git ref>   (see docs/testing.md)'
      : 'mutation: no product source to mutate (TypeScript files under src/, machines/, core/, api/, server/, build/)',
  );
  process.exit(args.length === 0 ? 2 : 0);
}

console.log(`mutation: ${files.length} file(s): ${files.join(', ')}`);
// A report left by an earlier run must not stand in for this one if Stryker stops before writing its own.
rmSync(REPORT, { force: true });
const started = Date.now();
const result = spawnSync(
  'npx',
  ['stryker', 'run', 'scripts/mutation/stryker.config.mjs', '--mutate', files.join(','), ...strykerArgs],
  { stdio: 'inherit', env: staticToo ? { ...process.env, MUTATION_STATIC: '1' } : process.env },
);
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
if (!existsSync(REPORT)) {
  console.error(`mutation: no report at ${REPORT}; Stryker exited with ${result.status}`);
  process.exit(result.status || 1);
}

const count = (mutants) => {
  const tally = { killed: 0, timeout: 0, survived: 0, noCoverage: 0, ignored: 0, errors: 0 };
  for (const { status } of mutants) {
    if (status === 'Killed') tally.killed += 1;
    else if (status === 'Timeout') tally.timeout += 1;
    else if (status === 'Survived') tally.survived += 1;
    else if (status === 'NoCoverage') tally.noCoverage += 1;
    else if (status === 'Ignored') tally.ignored += 1;
    else tally.errors += 1;
  }
  const detected = tally.killed + tally.timeout;
  const valid = detected + tally.survived + tally.noCoverage;
  return { ...tally, detected, valid, score: valid === 0 ? 100 : (100 * detected) / valid };
};

const report = JSON.parse(readFileSync(REPORT, 'utf8'));
const all = count(Object.values(report.files).flatMap((file) => file.mutants));
console.log(
  `mutation score ${all.score.toFixed(2)} %: ${all.detected} of ${all.valid} mutants detected ` +
    `(${all.killed} killed, ${all.timeout} timed out), ${all.survived} survived, ${all.noCoverage} not covered` +
    `${all.ignored ? `, ${all.ignored} ignored (static or disabled by a comment)` : ''}` +
    `${all.errors ? `, ${all.errors} errors` : ''}; ${minutes} min; report: reports/mutation/index.html`,
);
process.exit(result.status ?? 1);
