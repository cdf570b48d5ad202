'use strict';
// The order Jest starts test files in (jest.config.js `testSequencer`): the longest first, so that
// no long file starts near the end of a run while the other workers have nothing left to do.
//
// Jest orders by each file's last duration in its own cache, and without that cache (a fresh clone,
// as in CI, or a new worktree) by file size: the run's longest files by time are not its largest
// (openRequests.test.ts, a few minutes, is mid-sized; patience.test.ts, a minute of waiting on rate
// limit windows, is among the smallest) and started last. So each file's seconds measured in a
// whole run are kept in fileSeconds.json (`node scripts/testTiming.js <timing lines> --record`
// after `npm test -- --timing`), and read before Jest's cache; a file in neither is started first,
// as Jest does with new files.
const path = require('node:path');
const { default: Sequencer } = require('@jest/test-sequencer');
const seconds = require('./fileSeconds.json');

const root = path.resolve(__dirname, '..', '..');

class LongestFirst extends Sequencer {
  time(test) {
    const recorded = seconds[path.relative(root, test.path).split(path.sep).join('/')];
    return recorded === undefined ? super.time(test) : recorded * 1000;
  }
}

module.exports = LongestFirst;
