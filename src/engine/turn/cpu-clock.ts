// The turn budget's default compute clock: the CPU time this process has used, in milliseconds. Reading it
// is a system call (`process.cpuUsage`), and a turn's sections and rule runs read their clock about twenty
// times: on the 2-core machine the calls cost a tenth of an offline turn (bench/server.ts). So the kernel is
// asked at most once per CPU_CLOCK_RESOLUTION_MS of wall time; between two readings the clock moves with the
// wall clock from the last one (the running thread can use no more CPU than the time that passes), never
// backwards. A reading is then at most the resolution ahead of the CPU used, and the next reading after
// the window corrects it: time the machine gives to other processes is still not counted, to within the
// resolution. Pure: both clocks are given (run-turn.ts passes the process's).

/** Wall milliseconds between two readings of the CPU clock: the budget's time resolution. */
export const CPU_CLOCK_RESOLUTION_MS = 1;

export function coarseCpuClock(
  /** The CPU time used so far, in milliseconds (the system call). */
  readCpuMs: () => number,
  /** A cheap monotonic wall clock, in milliseconds. */
  wallNow: () => number,
  resolutionMs = CPU_CLOCK_RESOLUTION_MS,
): () => number {
  let readAtWall = Number.NEGATIVE_INFINITY;
  let readCpu = 0;
  let last = Number.NEGATIVE_INFINITY;
  return () => {
    const wall = wallNow();
    if (wall - readAtWall >= resolutionMs) {
      readCpu = readCpuMs();
      readAtWall = wall;
    }
    last = Math.max(last, readCpu + (wall - readAtWall));
    return last;
  };
}
