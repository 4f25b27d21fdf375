// The mutants left alive (survived or not covered), by Stryker or by the hand-written kinds (mutant-kinds.mjs),
// each with the reason it is equivalent or harmless. Reasons live in scripts/mutation/survivors/, one file per
// source file at the source's own path (survivors/machines/app.build.json is machines/app/app.build.ts,
// survivors/src/platform/api.json is src/platform/api.ts), one entry per mutant:
//   { "line": 38, "mutator": "ConditionalExpression", "original": "…", "replacement": "false", "reason": "…" }
// A mutant is matched by file, mutator, original code and replacement (not by line, which moves with edits); a
// kind's mutant has its kind as the mutator.
//
//   node scripts/mutation/mutation-survivors.mjs               list every survivor with its reason (or "no reason yet")
//   node scripts/mutation/mutation-survivors.mjs --todo FILE   the survivors of one file that have no reason, with context
//   node scripts/mutation/mutation-survivors.mjs --check       exit 1 when a survivor has no reason
//   node scripts/mutation/mutation-survivors.mjs --docs        write the list as a page, reports/mutation/survivors.md
// The survivors come from each Stryker run's last report (reports/), or its committed results
// (scripts/mutation/baseline/stryker.<run>.json) where it has none, and the kinds' committed results;
// `--report FILE` (repeatable) reads these reports in Stryker's JSON format instead. The reasons are the one
// committed form of the list: the page is drawn from them on demand and never committed.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { KINDS_RESULTS, REASONS_DIR, RUNS } from './runs.mjs';

export { REASONS_DIR };
export const SURVIVORS_PAGE = 'reports/mutation/survivors.md';

/** The source text a mutant replaced, on one line. */
function originalOf(source, location) {
  const lines = source.split('\n');
  const { start, end } = location;
  const picked = lines.slice(start.line - 1, end.line);
  picked[picked.length - 1] = picked[picked.length - 1].slice(0, end.column - 1);
  picked[0] = picked[0].slice(start.column - 1);
  return oneLine(picked.join('\n'));
}

function oneLine(text) {
  return text.replace(/\s+/g, ' ').trim();
}

const keyOf = (file, mutator, original, replacement) =>
  [file, mutator, oneLine(original), oneLine(replacement ?? '')].join('\u0000');

/** Every survivor of the report: file, line, mutator, original code, replacement, status. */
export function survivorsOf(report) {
  const list = [];
  for (const [file, { source, mutants }] of Object.entries(report.files)) {
    for (const mutant of mutants) {
      if (mutant.status !== 'Survived' && mutant.status !== 'NoCoverage') continue;
      list.push({
        file,
        line: mutant.location.start.line,
        column: mutant.location.start.column,
        mutator: mutant.mutatorName,
        original: originalOf(source, mutant.location),
        replacement: oneLine(mutant.replacement ?? ''),
        status: mutant.status,
      });
    }
  }
  return list.sort(bySite);
}

/**
 * File, line, then column, mutator and replacement: the same order whichever report (last run or incremental
 * file) the list comes from, since the two hold a file's mutants in different orders.
 */
export const bySite = (a, b) =>
  a.file.localeCompare(b.file) ||
  a.line - b.line ||
  a.column - b.column ||
  a.mutator.localeCompare(b.mutator) ||
  a.replacement.localeCompare(b.replacement);

/** The source file a reasons file speaks for: its path under survivors/, `.ts` for `.json` (`survivors/src/platform/api.json`: `src/platform/api.ts`). */
export function sourceOfReasons(name) {
  return name.replace(/\.json$/, '.ts');
}

/** The kinds' survivors in a results list of mutant-kinds.mjs (baseline/kinds.json), as survivorsOf gives Stryker's. */
export function kindSurvivorsOf(results) {
  return results
    .filter((r) => r.status === 'Survived' || r.status === 'NoCoverage')
    .map((r) => ({ ...r, mutator: r.kind, column: 0 }))
    .sort(bySite);
}

/** The reasons files under dir, as paths relative to it. */
function reasonFiles(dir, prefix = '') {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const name = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return reasonFiles(dir, name);
    return entry.name.endsWith('.json') ? [name] : [];
  });
}

/** The recorded reasons, by key; a key may hold several (the same change on two lines of a file). */
export function readReasons(dir = REASONS_DIR) {
  const reasons = new Map();
  if (!existsSync(dir)) return reasons;
  for (const name of reasonFiles(dir)) {
    const file = sourceOfReasons(name);
    for (const entry of JSON.parse(readFileSync(join(dir, name), 'utf8'))) {
      if (!entry.reason?.trim()) throw new Error(`${dir}/${name}: line ${entry.line} has no reason`);
      const key = keyOf(file, entry.mutator, entry.original, entry.replacement);
      reasons.set(key, [...(reasons.get(key) ?? []), entry.reason.trim()]);
    }
  }
  return reasons;
}

/**
 * Each survivor with its reason, or `null`. A recorded reason explains one survivor: when the same change
 * survives on more lines than there are reasons for it, the later ones are unexplained.
 */
export function explain(survivors, reasons) {
  const used = new Map();
  return survivors.map((survivor) => {
    const key = keyOf(survivor.file, survivor.mutator, survivor.original, survivor.replacement);
    const index = used.get(key) ?? 0;
    used.set(key, index + 1);
    return { ...survivor, reason: reasons.get(key)?.[index] ?? null };
  });
}

function shorten(text, max = 90) {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function markdownCell(text) {
  return text.replace(/\|/g, '\\|');
}

function table(explained) {
  const rows = explained.map((s) => {
    const reason = s.reason ?? '**no reason yet**';
    const change = `\`${markdownCell(shorten(s.original, 60))}\` → \`${markdownCell(shorten(s.replacement || '(removed)', 40))}\``;
    const status = s.status === 'NoCoverage' ? ' (not covered)' : '';
    return `| ${s.file}:${s.line} | ${s.mutator}${status} | ${change} | ${markdownCell(reason)} |`;
  });
  return ['| where | mutator | change | why it may live |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

/** The page --docs writes: what it is, where it comes from, then the table. */
function page(explained, missing, sources) {
  return [
    '# Surviving mutants',
    '',
    '<!-- Drawn by `node scripts/mutation/mutation-survivors.mjs --docs`; never committed: the reasons are edited in scripts/mutation/survivors/. -->',
    '',
    "Every mutant that Stryker's mutation testing (of `machines/`, the platform adapters, the page registry, the",
    'formatters and the API) or a hand-written mutant kind leaves alive (survived, or not covered by any test), each',
    'with the recorded reason why it is equivalent (no behaviour anyone can observe changes) or harmless. The reasons',
    'live in `scripts/mutation/survivors/<source path>.json`, matched by file, mutator, original code and replacement.',
    `Drawn from ${sources.join(', ')}: ${explained.length} survivors, ${missing.length} without a reason.`,
    'How mutation testing runs: docs/testing.md, "Mutation testing".',
    '',
    table(explained),
    '',
  ].join('\n');
}

function main() {
  const args = process.argv.slice(2);
  const given = [];
  for (let at = args.indexOf('--report'); at >= 0; at = args.indexOf('--report'))
    given.push(args.splice(at, 2)[1]);
  // Each run's last report, else its committed results.
  const candidates =
    given.length > 0
      ? given
      : Object.values(RUNS).map((run) => (existsSync(run.report) ? run.report : run.incremental));
  const found = candidates.filter((path) => path && existsSync(path));
  if (found.length === 0) {
    console.error(`no report at ${candidates.join(' or ')}: run \`npm run test:mutation\` first`);
    process.exit(1);
  }
  const report = { files: {} };
  for (const path of found) Object.assign(report.files, JSON.parse(readFileSync(path, 'utf8')).files);
  const kinds =
    given.length === 0 && existsSync(KINDS_RESULTS) ? JSON.parse(readFileSync(KINDS_RESULTS, 'utf8')) : [];
  if (kinds.length > 0) found.push(KINDS_RESULTS);
  const survivors = [...survivorsOf(report), ...kindSurvivorsOf(kinds)].sort(bySite);
  const reasons = readReasons();
  const explained = explain(survivors, reasons);
  const missing = explained.filter((s) => s.reason === null);

  if (args[0] === '--todo') {
    const file = args[1];
    const source = report.files[file]?.source.split('\n') ?? [];
    for (const s of missing.filter((m) => m.file === file)) {
      console.log(`--- ${s.file}:${s.line} ${s.mutator} (${s.status})`);
      console.log(`original:    ${s.original}`);
      console.log(`replacement: ${s.replacement}`);
      for (let n = Math.max(1, s.line - 3); n <= Math.min(source.length, s.line + 3); n += 1)
        console.log(`${String(n).padStart(4)}${n === s.line ? '>' : ' '} ${source[n - 1]}`);
    }
    return;
  }
  if (args[0] === '--check') {
    if (missing.length === 0) {
      console.log(`mutation: all ${survivors.length} surviving mutants have a recorded reason`);
      return;
    }
    console.error(
      `mutation: ${missing.length} surviving mutant(s) have no reason in ${REASONS_DIR}/: kill each with a test, ` +
        'or record why it is equivalent or harmless',
    );
    for (const s of missing)
      console.error(`  ${s.file}:${s.line} ${s.mutator}: ${s.original} -> ${s.replacement}`);
    process.exit(1);
  }
  if (args[0] === '--docs') {
    mkdirSync(dirname(SURVIVORS_PAGE), { recursive: true });
    writeFileSync(SURVIVORS_PAGE, page(explained, missing, found));
    console.log(
      `${SURVIVORS_PAGE}: ${survivors.length} surviving mutants listed, ${missing.length} without a reason`,
    );
    return;
  }
  console.log(table(explained));
  console.log(`\n${survivors.length} surviving mutants, ${missing.length} without a reason`);
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) main();
