import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The per-file timing of `node scripts/test.js --timing` (test/support/timing.js,
// scripts/testTiming.js) and the order Jest starts files in (test/support/sequencer.js).

const root = path.resolve(__dirname, '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const LongestFirst = require('../support/sequencer') as new () => {
  sort(tests: FakeTest[]): FakeTest[];
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { summary } = require('../../scripts/testTiming') as {
  summary(timings: Timing[], count?: number): string;
};

interface Timing {
  file: string;
  project: string;
  wall: number;
  cpu: number;
  children: number;
}

interface FakeTest {
  path: string;
  duration?: number;
  context: { config: { cache: boolean }; hasteFS: { getSize(file: string): number } };
}

/** Jest's view of `file` (under the repository), `size` bytes long, with no cache of its own. */
function fakeTest(file: string, size: number): FakeTest {
  return {
    path: path.join(root, file),
    context: { config: { cache: false }, hasteFS: { getSize: () => size } },
  };
}

describe('the order Jest starts test files in', () => {
  it('starts the longest recorded file first, before larger files that are quicker', () => {
    const seconds = JSON.parse(
      readFileSync(path.join(root, 'test/support/fileSeconds.json'), 'utf8'),
    ) as Record<string, number>;
    const [longest, quick] = [
      Object.keys(seconds)[0]!,
      Object.keys(seconds).find((file) => seconds[file]! < 2)!,
    ];
    const tests = [
      fakeTest(quick, 50_000),
      fakeTest('test/unrecorded.test.ts', 10),
      fakeTest(longest, 1_000),
    ];
    const order = new LongestFirst().sort(tests).map((test) => path.relative(root, test.path));
    // A file with no recorded time (a new one) first, as Jest does; then by time, not by size.
    expect(order).toEqual(['test/unrecorded.test.ts', longest, quick]);
  });
});

describe('the summary of a timed run', () => {
  const timings: Timing[] = [
    { file: path.join(root, 'test/a.test.ts'), project: 'unit', wall: 2, cpu: 1.5, children: 0 },
    { file: path.join(root, 'test/b.test.ts'), project: 'integration', wall: 30, cpu: 4, children: 1 },
    { file: path.join(root, 'test/c.test.ts'), project: 'integration', wall: 10, cpu: 9, children: 0 },
  ];

  it("sums each project's files and lists the slowest first, with the time they spent idle", () => {
    const lines = summary(timings, 2).split('\n');
    expect(lines.find((line) => line.startsWith('integration'))?.split(/\s+/)).toEqual([
      'integration',
      '2',
      '40.0',
      '13.0',
      '1.0',
    ]);
    const listed = lines.filter((line) => line.includes('test/'));
    expect(listed.map((line) => line.trim().split(/\s+/))).toEqual([
      ['30.0', '4.0', '1.0', '25.0', 'test/b.test.ts'],
      ['10.0', '9.0', '0.0', '1.0', 'test/c.test.ts'],
    ]);
  });
});

describe('a test file timed by its worker', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'steward-timing-test-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('appends one line with its wall time and CPU when it ends, and nothing when untimed', () => {
    const output = path.join(dir, 'files.jsonl');
    const load = (env: string | undefined) => {
      const before = process.env.STEWARD_TEST_TIMING;
      process.env.STEWARD_TEST_TIMING = env ?? '';
      try {
        let timing: { startFile(file: string, project: string): () => void } | undefined;
        jest.isolateModules(() => {
          // eslint-disable-next-line @typescript-eslint/no-require-imports
          timing = require('../support/timing');
        });
        return timing!;
      } finally {
        process.env.STEWARD_TEST_TIMING = before;
      }
    };
    const untimed = load(undefined).startFile('/x/untimed.test.ts', 'unit');
    const ended = load(output).startFile('/x/busy.test.ts', 'unit');
    const spent = process.cpuUsage();
    while (process.cpuUsage(spent).user < 50_000); // 50 ms of CPU
    ended();
    untimed();
    const lines = readFileSync(output, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Timing);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ file: '/x/busy.test.ts', project: 'unit' });
    expect(lines[0]!.cpu).toBeGreaterThanOrEqual(0.05);
    expect(lines[0]!.wall).toBeGreaterThanOrEqual(0.05);
    expect(lines[0]!.children).toBeGreaterThanOrEqual(0);
  });
});
