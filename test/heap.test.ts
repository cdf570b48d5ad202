import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { setHeapGrowth } from '../src/heap';

const HEAP = path.resolve(__dirname, '..', 'dist', 'heap.js');

/**
 * A program that keeps ~40 MiB alive and churns objects that live long enough to be promoted to
 * the old generation before they are dropped (the shape of a busy server's garbage), then prints
 * the largest heap it saw. It runs in its own process because the setting applies to a whole one.
 */
const CHURN = `
  require(${JSON.stringify(HEAP)}).setHeapGrowth(Number(process.argv[1]));
  function churn() {
    const live = Array.from({ length: 200000 }, (_, i) => ({ i, text: 'x'.repeat(100) + i }));
    const ring = new Array(4000);
    let peak = 0;
    for (let n = 0; n < 400000; n++) {
      ring[n % ring.length] = { n, payload: new Array(64).fill(n), text: 'item ' + n };
      if (n % 1000 === 0) peak = Math.max(peak, process.memoryUsage().heapTotal);
    }
    return { peak, kept: live.length + ring.length };
  }
  process.stdout.write(JSON.stringify(churn()));
`;

async function peakHeap(percent: number): Promise<number> {
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', CHURN, String(percent)]);
  return (JSON.parse(stdout) as { peak: number }).peak;
}

describe('heap growth (STEWARD_HEAP_GROWTH_PERCENT)', () => {
  test('the heap under churn grows as far as the setting lets it', async () => {
    // V8's own choice varies from run to run (it weighs GC speed against allocation), so the
    // setting is checked between two fixed values: 1.1 × and 4 × what the last full collection kept.
    const [tight, loose] = [await peakHeap(10), await peakHeap(300)];
    // Measured on the development machine: about 155 MiB against 290 MiB.
    expect(tight).toBeLessThan(loose * 0.7);
    expect(tight).toBeGreaterThan(40 * 2 ** 20); // the live set is still there: the program ran
    // Two CPU-bound processes, one after the other: seconds on a quiet machine, more than Jest's
    // default 30 s on a loaded two-core one.
  }, 180_000);

  test('refuses what is not a whole, non-negative percent', () => {
    expect(() => setHeapGrowth(-1)).toThrow(RangeError);
    expect(() => setHeapGrowth(12.5)).toThrow(RangeError);
  });
});
