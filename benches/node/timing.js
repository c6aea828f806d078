// Medians of repeated runs after a warm-up; rows printed as a Markdown table.
// Time is this process's CPU time (user + system, all its threads, so the
// garbage collector's too), not wall time: on a shared machine other
// processes' load stretches wall time but not this.
import fs from 'node:fs'

// benches/table.py runs every benchmark several times and writes one table:
// FLOW_BENCH_JSON names a file each figure is appended to as a JSON line (the
// printed output stays as it is), and FLOW_BENCH_QUICK asks for a short run.
export const QUICK = !['', '0', undefined].includes(process.env.FLOW_BENCH_QUICK)
export const RUNS = QUICK ? 3 : 15
const WARMUP = QUICK ? 1 : 3

/** `full` normally, `quick` in a quick run. */
export function scaled(full, quick) {
  return QUICK ? quick : full
}

/** Appends one figure; `unit` is 'ms' (lower is better) or 'calls/s' (higher is better). */
export function record(bench, id, label, unit, value, extra = {}) {
  const file = process.env.FLOW_BENCH_JSON
  if (!file) return
  fs.appendFileSync(file, JSON.stringify({ bench, id, label, unit, value, ...extra }) + '\n')
}

export function medianMs(fn, runs = RUNS, warmup = WARMUP) {
  for (let i = 0; i < warmup; i++) fn()
  const times = []
  for (let i = 0; i < runs; i++) {
    const start = process.cpuUsage()
    fn()
    const used = process.cpuUsage(start)
    times.push((used.user + used.system) / 1e3)
  }
  times.sort((a, b) => a - b)
  return times[Math.floor(times.length / 2)]
}

export function header(title) {
  console.log(`\n${title}\n`)
  console.log('| what | median CPU time | throughput |')
  console.log('|---|---|---|')
}

export function row(what, ms, bytes) {
  console.log(`| ${what} | ${ms.toFixed(1)} ms | ${(bytes / 1e6 / (ms / 1e3)).toFixed(0)} MB/s |`)
}
