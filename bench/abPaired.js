'use strict';
// The paired catalog A/B: `node bench/abPaired.js <baseline dir> [more dirs…] [--chunks N] [--requests M]`
// starts one Steward per checkout (this one last), all at once, and loads them in turn with short
// chunks of `GET /me/catalog/templates` (M requests each, 20 connections), the order rotating each
// chunk, N chunks. Each chunk's CPU a request comes from the kernel's nanosecond count of the
// server's threads (/proc/<pid>/task/*/schedstat). On a machine others load, a whole-run A/B
// (bench/ab.js) moves by tens of percent from one run to the next; here the sides of a chunk run
// seconds apart, so the median of the per-chunk differences shows what the load hides.
// Directories are built checkouts, as for bench/ab.js (this checkout's bench/ is copied into each);
// --baseline-node BIN runs their servers on another Node.js (a runtime upgrade's A/B).
// --bare adds a bare node:http server answering this checkout's bytes (bench/servers/bare.js) as
// one more side, and prints each side's median CPU a request as a multiple of the bare one's.
const { execFileSync } = require('node:child_process');
const { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const autocannon = require('autocannon');
const { cpuNsOf: cpuNs } = require('./processes');

const PATH = '/api/v1.0/me/catalog/templates';

function options(args) {
  const valueOf = (flag, fallback) => {
    const at = args.indexOf(flag);
    return at >= 0 ? Number(args[at + 1]) : fallback;
  };
  const flags = new Set(['--chunks', '--requests', '--baseline-node']);
  const dirs = args.filter((a, i) => !a.startsWith('--') && !flags.has(args[i - 1]));
  const bare = args.includes('--bare');
  const chunks = valueOf('--chunks', 30);
  const requests = valueOf('--requests', 1000);
  if (dirs.length === 0 || dirs.some((d) => !existsSync(path.join(d, 'dist', 'main.js'))))
    throw new Error('usage: node bench/abPaired.js <built checkout>… [--chunks N] [--requests M]');
  if (!Number.isInteger(chunks) || chunks < 4 || chunks > 200) throw new Error('--chunks takes 4 to 200');
  if (!Number.isInteger(requests) || requests < 200) throw new Error('--requests takes 200 or more');
  const nodeAt = args.indexOf('--baseline-node');
  const baselineNode = nodeAt >= 0 ? args[nodeAt + 1] : undefined;
  if (nodeAt >= 0 && !(baselineNode && existsSync(baselineNode)))
    throw new Error('--baseline-node takes the path of a node binary');
  return { dirs: dirs.map((d) => path.resolve(d)), chunks, requests, baselineNode, bare };
}

const at = (sorted, q) => sorted[Math.floor(q * (sorted.length - 1))];
const sortedOf = (values) => [...values].sort((a, b) => a - b);
const us = (n) => `${n.toFixed(1)} µs`;

async function main() {
  const { dirs, chunks, requests, baselineNode, bare } = options(process.argv.slice(2));
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'steward-bench-paired-'));
  const here = path.resolve(__dirname, '..');
  const sides = [];
  for (const dir of [...dirs, here]) {
    if (dir !== here) cpSync(path.join(here, 'bench'), path.join(dir, 'bench'), { recursive: true });
    const { startServer } = require(path.join(dir, 'bench', 'processes'));
    if (dir !== here && baselineNode) process.env.BENCH_NODE = baselineNode;
    else delete process.env.BENCH_NODE;
    const server = await startServer('steward.js', { label: dir });
    const node = execFileSync(process.env.BENCH_NODE ?? process.execPath, ['--version'], {
      encoding: 'utf8',
    }).trim();
    const load = (amount) =>
      autocannon({
        url: server.url + PATH,
        connections: 20,
        headers: { authorization: `Bearer ${server.token}` },
        amount,
      });
    sides.push({
      label: `${dir === here ? 'this' : dir} (Node ${node})`,
      server,
      load,
      samples: [],
      bytes: 0,
    });
  }
  try {
    for (const side of sides) {
      const res = await fetch(side.server.url + PATH, {
        headers: { authorization: `Bearer ${side.server.token}` },
      });
      side.body = Buffer.from(await res.arrayBuffer());
      side.type = res.headers.get('content-type');
      side.bytes = side.body.length;
      await side.load(3000); // warm-up, not counted
    }
    if (bare) {
      const own = sides[sides.length - 1];
      writeFileSync(path.join(scratch, 'body.json'), own.body);
      const { startServer } = require('./processes');
      const server = await startServer('bare.js', { args: [path.join(scratch, 'body.json'), own.type] });
      const load = (amount) => autocannon({ url: server.url + PATH, connections: 20, amount });
      const side = { label: 'bare node:http', server, load, samples: [], bytes: own.bytes, bare: true };
      await side.load(3000);
      sides.push(side);
    }
    const loads = [];
    for (let chunk = 0; chunk < chunks; chunk++) {
      loads.push(os.loadavg()[0]);
      for (let k = 0; k < sides.length; k++) {
        const side = sides[(k + chunk) % sides.length];
        const before = cpuNs(side.server.pid);
        const result = await side.load(requests);
        const used = cpuNs(side.server.pid) - before;
        if (result.non2xx || result.errors) throw new Error(`${side.label}: non-2xx answers or errors`);
        side.samples.push(used / 1e3 / result.requests.total);
      }
    }
    console.log(
      `load average (1 min) from ${Math.min(...loads).toFixed(1)} to ${Math.max(...loads).toFixed(1)}`,
    );
    console.log('\n| side | body bytes | CPU/req p25 | median | p75 | median of (side − first) per chunk |');
    console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
    const first = sides[0].samples;
    for (const side of sides) {
      const own = sortedOf(side.samples);
      const diff = sortedOf(side.samples.map((v, i) => v - first[i]));
      const paired =
        side === sides[0]
          ? '—'
          : `${us(at(diff, 0.5))} (p25 ${us(at(diff, 0.25))}, p75 ${us(at(diff, 0.75))})`;
      console.log(
        `| ${side.label} | ${side.bytes} | ${us(at(own, 0.25))} | ${us(at(own, 0.5))} | ${us(at(own, 0.75))} | ${paired} |`,
      );
    }
    const bareSide = sides.find((side) => side.bare);
    if (bareSide) {
      const bareMedian = at(sortedOf(bareSide.samples), 0.5);
      console.log('\n| side | median CPU a request / bare node:http |');
      console.log('| --- | ---: |');
      for (const side of sides.filter((s) => !s.bare)) {
        // Per chunk, the side's CPU a request over the bare server's in the same chunk.
        const ratios = sortedOf(side.samples.map((v, i) => v / bareSide.samples[i]));
        const median = at(sortedOf(side.samples), 0.5) / bareMedian;
        console.log(
          `| ${side.label} | ${median.toFixed(2)} × (per chunk: median ${at(ratios, 0.5).toFixed(2)}, p25 ${at(ratios, 0.25).toFixed(2)}, p75 ${at(ratios, 0.75).toFixed(2)}) |`,
        );
      }
    }
  } finally {
    for (const side of sides) await side.server.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
