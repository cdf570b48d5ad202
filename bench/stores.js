'use strict';
// The stores the benchmarks run on: a fresh PostgreSQL database per configuration (on the server
// BENCH_DATABASE_URL or STEWARD_TEST_DATABASE_URL names), and latency percentiles.
const { randomBytes } = require('node:crypto');
const { URL } = require('node:url');
const { Client } = require('pg');

/** The admin URL of a PostgreSQL server to create the benchmark databases on, or undefined. */
function adminUrl() {
  return process.env.BENCH_DATABASE_URL || process.env.STEWARD_TEST_DATABASE_URL || undefined;
}

/**
 * The stores a benchmark runs on: SQLite always, PostgreSQL when an admin URL is set (says so when
 * it is not). Returns the admin URL too.
 */
function storeKinds() {
  const admin = adminUrl();
  if (!admin)
    console.log('PostgreSQL skipped: neither BENCH_DATABASE_URL nor STEWARD_TEST_DATABASE_URL is set.');
  return { admin, kinds: admin ? ['sqlite', 'postgres'] : ['sqlite'] };
}

async function asAdmin(url, work) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh, empty database: its URL, whether it is on this machine, and how to drop it. */
async function freshPostgres(admin) {
  const name = `steward_bench_${randomBytes(6).toString('hex')}`;
  await asAdmin(admin, (client) => client.query(`create database ${name}`));
  const url = new URL(admin);
  url.pathname = `/${name}`;
  const local = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  return {
    url: url.toString(),
    local,
    drop: () => asAdmin(admin, (client) => client.query(`drop database if exists ${name} with (force)`)),
  };
}

/** The value below which `p` of the sorted values lie (nearest rank). */
function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

module.exports = { adminUrl, freshPostgres, percentile, storeKinds };
