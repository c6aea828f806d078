// Medians of repeated runs after a warm-up; rows printed as a Markdown table.
// Time is this process's CPU time (user + system, all its threads, so the
// garbage collector's too), not wall time: on a shared machine other
// processes' load stretches wall time but not this.
export function medianMs(fn, runs = 15, warmup = 3) {
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
