'use strict';
// The load side of the job benchmarks: provisioning requests submitted over HTTP, the store read
// directly from the benchmark's process, and the wait until every job has finished.
const { performance } = require('node:perf_hooks');
const SQLite = require('better-sqlite3');
const { Client } = require('pg');
const { Pool } = require('undici');

const POLL_MS = 100;

/** Read access to the store the servers write, from this process: SQLite file or PostgreSQL. */
async function openReader(kind, location) {
  if (kind === 'sqlite') {
    const db = new SQLite(location, { fileMustExist: true });
    return { query: async (text) => db.prepare(text).all(), close: async () => db.close() };
  }
  const client = new Client({ connectionString: location });
  await client.connect();
  return { query: async (text) => (await client.query(text)).rows, close: () => client.end() };
}

/** Job counts by status. */
async function statusCounts(reader) {
  const rows = await reader.query('select status, count(*) as n from jobs group by status');
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

/**
 * Submits `count` provisioning requests (`bodyOf(i)`, a JSON object), `inFlight` at a time over one
 * undici pool: lane k acts as `tokens[k mod tokens.length]` and sends every `inFlight`-th request.
 */
async function submit(url, tokens, count, { inFlight, bodyOf }) {
  const pool = new Pool(url, { connections: inFlight });
  const submitted = []; // { id, at (epoch ms), latency (ms) }
  const failures = [];
  let next = 0;
  const lane = async (k) => {
    const authorization = `Bearer ${tokens[k % tokens.length]}`;
    while (next < count) {
      const body = JSON.stringify(bodyOf(next++));
      const at = Date.now();
      const started = performance.now();
      try {
        const res = await pool.request({
          method: 'POST',
          path: '/api/v1.0/teams/provisioning',
          headers: { authorization, 'content-type': 'application/json' },
          body,
        });
        const text = await res.body.text();
        const latency = performance.now() - started;
        if (res.statusCode !== 201) failures.push(`${res.statusCode} ${text.slice(0, 200)}`);
        else submitted.push({ id: JSON.parse(text).id, at, latency });
      } catch (error) {
        failures.push(String(error));
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: inFlight }, (_v, k) => lane(k)));
  } finally {
    await pool.close();
  }
  return { submitted, failures };
}

/**
 * Waits until `total` jobs have finished (completed or failed, all types); gives up after
 * `timeoutMs` or when one of `processes` died. Resolves with the job counts by status.
 */
async function untilDone(reader, total, timeoutMs, processes) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const dead = processes.find((p) => p.exited());
    if (dead) throw new Error(`${dead.label} exited during the run`);
    const counts = await statusCounts(reader);
    const finished = (counts.completed ?? 0) + (counts.failed ?? 0);
    if (finished >= total) return counts;
    if (Date.now() > deadline)
      throw new Error(`jobs not finished after ${timeoutMs / 1000} s: ${JSON.stringify(counts)}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

module.exports = { openReader, statusCounts, submit, untilDone };
