// Prints the run's wall-clock duration and then the CI's closing line, `vitest: N passed, N failed, N skipped`,
// after Vitest's own summary. Skipped tests are counted one by one: a suite skipped because ../shared or
// PostgreSQL is missing still collects its tests, so the count shows what the skip removed. A file that
// failed without a failed test (it did not start) counts as one failure.
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  private started = performance.now();

  onInit(): void {
    this.started = performance.now();
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const m of modules) {
      let failedHere = 0;
      for (const t of m.children.allTests()) {
        const state = t.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failedHere++;
        else skipped++;
      }
      // A file that failed with no failed test (it did not load, or a beforeAll threw and its tests were
      // never run) is one failure: its tests are not "skipped".
      if (m.state() === 'failed' && failedHere === 0) failedHere = 1;
      failed += failedHere;
    }
    failed += errors.length;
    const seconds = (performance.now() - this.started) / 1000;
    const minutes = Math.floor(seconds / 60);
    const took =
      minutes > 0 ? `${minutes} min ${(seconds - minutes * 60).toFixed(0)} s` : `${seconds.toFixed(1)} s`;
    process.stdout.write(`\nnpm test took ${took} (${modules.length} files)\n`);
    process.stdout.write(`vitest: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
