// Where a CPU profile's busy time went in one window, by source file or package (bench/cpu-profile.ts):
//   npx tsx bench/profile-window.ts <profile.cpuprofile> [from s] [to s] [rows]
// Without a window it prints the busy share of each second, to find a bench's phases in the profile first
// (BENCH_SERVER_PROFILE=<dir> writes the bench server's profile; add BENCH_SERVER_FLAGS=--cpu-prof-interval=250
// for finer samples).
import { busyBySource } from './cpu-profile.ts';

const [file, from, to, rows] = process.argv.slice(2);
if (!file) {
  console.error('usage: npx tsx bench/profile-window.ts <profile.cpuprofile> [from s] [to s] [rows]');
  process.exit(2);
}
const breakdown = busyBySource(file, Number(from ?? 0), to === undefined ? undefined : Number(to));
if (from === undefined) {
  console.log(breakdown.perSecond.map((busy, s) => `${s}s ${Math.round(busy * 100)}%`).join('  '));
} else {
  const percent = (v: number) => `${(v * 100).toFixed(1).padStart(5)} %`;
  console.log(
    `${from}–${to ?? 'end'} s: busy ${Math.round(breakdown.busyMs)} of ${Math.round(breakdown.wallMs)} ms (${percent(breakdown.busyMs / Math.max(1, breakdown.wallMs)).trim()}); each source's share of it, callees included:`,
  );
  for (const { source, share } of breakdown.bySource.slice(0, Number(rows ?? 40)))
    console.log(`${percent(share)}  ${source}`);
}
