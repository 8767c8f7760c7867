// The budget's compute clock asks the kernel at most once per resolution window of wall time, moves with the
// wall clock in between, never goes back, and stays within the resolution of the CPU actually used: time
// the machine gives to other processes is not counted past the next reading.
import { describe, expect, it } from 'vitest';
import { CPU_CLOCK_RESOLUTION_MS, coarseCpuClock } from '../../../src/engine/turn/cpu-clock.ts';

/** Scripted clocks: `wall` and `cpu` are set by the test; `reads` counts the CPU readings. */
function scripted() {
  const at = { wall: 0, cpu: 0, reads: 0 };
  const clock = coarseCpuClock(
    () => {
      at.reads += 1;
      return at.cpu;
    },
    () => at.wall,
  );
  return { at, clock };
}

describe('coarseCpuClock', () => {
  it('reads the CPU once per resolution window and moves with the wall clock in between', () => {
    const { at, clock } = scripted();
    at.cpu = 50;
    expect(clock()).toBe(50);
    expect(at.reads).toBe(1);
    // Computing for most of a window: the wall clock stands in, no system call.
    at.wall = CPU_CLOCK_RESOLUTION_MS * 0.75;
    at.cpu = 50 + CPU_CLOCK_RESOLUTION_MS * 0.75;
    expect(clock()).toBe(50 + CPU_CLOCK_RESOLUTION_MS * 0.75);
    expect(at.reads).toBe(1);
    // At the window's end (not before) the kernel is asked again.
    at.wall = CPU_CLOCK_RESOLUTION_MS;
    at.cpu = 50 + CPU_CLOCK_RESOLUTION_MS;
    expect(clock()).toBe(50 + CPU_CLOCK_RESOLUTION_MS);
    expect(at.reads).toBe(2);
  });

  it('does not count time the machine gave to other processes past the next reading, and never goes back', () => {
    const { at, clock } = scripted();
    at.cpu = 10;
    const start = clock();
    // Descheduled for 50 ms of wall time, within which this process used 0.2 ms of CPU.
    at.wall = 50;
    at.cpu = 10.2;
    const end = clock();
    expect(end - start).toBeCloseTo(0.2, 10);
    // Ahead of the CPU within a window (wall time passes, no CPU used): at most the resolution ahead, then
    // held there (never backwards) until the CPU catches up.
    at.wall = 50 + CPU_CLOCK_RESOLUTION_MS * 0.9;
    const ahead = clock();
    expect(ahead - at.cpu).toBeLessThanOrEqual(CPU_CLOCK_RESOLUTION_MS);
    at.wall = 50 + CPU_CLOCK_RESOLUTION_MS;
    expect(clock()).toBe(ahead);
    at.cpu = ahead + 3;
    at.wall = 50 + CPU_CLOCK_RESOLUTION_MS * 2;
    expect(clock()).toBe(ahead + 3);
  });

  it('follows CPU used by other threads at the next reading (it can exceed the wall time)', () => {
    const { at, clock } = scripted();
    expect(clock()).toBe(0);
    at.wall = CPU_CLOCK_RESOLUTION_MS;
    at.cpu = CPU_CLOCK_RESOLUTION_MS * 3;
    expect(clock()).toBe(CPU_CLOCK_RESOLUTION_MS * 3);
  });
});
