// Small statistics and the shared results table of `pnpm bench`.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Short runs for CI (`BENCH_SMOKE=1`): proves the benchmarks still run, asserts no goal. */
export const SMOKE = process.env.BENCH_SMOKE === '1';

const RESULTS = new URL('../results/', import.meta.url);

/** The ratio of each pair measured side by side: `measured[i] / baseline[i]`. */
export const ratiosOfPairs = (measured, baseline) => measured.map((value, i) => value / baseline[i]);

/**
 * A row's figures from alternating runs: each side's median, to read the ratio by, and as the
 * ratio the median of the pairs' ratios (a slow spell of the machine weighs on both sides of a
 * pair), so the two need not agree exactly.
 */
export const compare = (measured, baseline) => ({
  measured: median(measured),
  baseline: median(baseline),
  ratio: median(ratiosOfPairs(measured, baseline)),
});

/**
 * One row of the table. `ratio` is measured / baseline unless given (the median of paired
 * ratios, say); `goal` with `better` ('higher' or 'lower') decides met. `problem` (a
 * bottleneck failure) reports no ratio at all.
 */
export function row({
  figure,
  measured,
  baseline,
  unit,
  goal,
  better = 'lower',
  problem = null,
  ratio: given,
}) {
  const ratio = problem ? null : (given ?? measured / baseline);
  // A row with no goal (null) only reports its figure: it is neither met nor missed.
  const met = ratio === null || goal === null ? false : better === 'higher' ? ratio >= goal : ratio <= goal;
  return {
    figure,
    measured,
    baseline,
    unit,
    ratio,
    goal: goal === null ? 'none (reported)' : `${better === 'higher' ? '≥' : '≤'} ${goal}`,
    met,
    reported: goal === null,
    problem,
  };
}

/** Prints rows as a table and merges them into bench/results/latest.json (per benchmark). */
export function publish(bench, rows) {
  const fmt = (n) => (typeof n === 'number' ? (Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(2)) : String(n));
  for (const r of rows) {
    const ratio = r.problem ? `no ratio: ${r.problem}` : `${r.ratio.toFixed(2)}×`;
    const verdict = r.problem ? 'UNTRUSTED' : r.reported ? 'reported' : r.met ? 'met' : 'NOT MET';
    console.log(
      `${verdict.padEnd(9)} ${r.figure.padEnd(52)} ${fmt(r.measured).padStart(9)} vs ${fmt(r.baseline).padStart(9)} ${r.unit.padEnd(6)} ${ratio.padEnd(12)} goal ${r.goal}`,
    );
  }
  if (SMOKE) return;
  mkdirSync(RESULTS, { recursive: true });
  const file = new URL('latest.json', RESULTS);
  let all = {};
  try {
    all = JSON.parse(readFileSync(file, 'utf8'));
  } catch {}
  all[bench] = { at: new Date().toISOString(), rows };
  writeFileSync(file, `${JSON.stringify(all, null, 2)}\n`);
}
