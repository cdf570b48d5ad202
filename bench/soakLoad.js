'use strict';
// The soak benchmark's load generator: steady rates of mixed requests and provisioning requests over
// one undici pool, cut in time slices (requests, errors, latencies, the server's RSS each second).
const { performance } = require('node:perf_hooks');
const { Pool } = require('undici');
const { rssOf } = require('./processes');
const { percentile } = require('./stores');

const IN_FLIGHT_CAP = 64;

/** A new time slice's counters. */
const slice = (index) => ({ index, requests: 0, errors: 0, latencies: [], rss: [], shed: 0 });

/**
 * Sends `rate` mixed requests a second and `provisioningRate` provisioning requests for `seconds`,
 * with at most IN_FLIGHT_CAP in flight (requests over the cap are shed and counted). A request
 * counts in the slice its answer arrives in; the server's RSS is sampled every second.
 */
async function load(server, kinds, provision, { seconds, sliceSeconds, rate, provisioningRate }) {
  const pool = new Pool(server.url, { connections: IN_FLIGHT_CAP });
  const count = Math.ceil(seconds / sliceSeconds);
  const slices = Array.from({ length: count }, (_v, i) => slice(i));
  const start = performance.now();
  // Answers arriving after the end count in the last slice.
  const current = () =>
    slices[Math.min(count - 1, Math.floor((performance.now() - start) / (sliceSeconds * 1000)))];
  const errorSamples = [];
  const counts = new Map();
  const weights = kinds.flatMap((kind) => Array(kind.weight).fill(kind));
  let inFlight = 0;
  let sent = 0;
  const send = async (kind) => {
    const n = counts.get(kind.name) ?? 0;
    counts.set(kind.name, n + 1);
    const [method, url, token, body] = kind.make(n);
    inFlight += 1;
    const started = performance.now();
    let detail;
    try {
      const res = await pool.request({
        method,
        path: url,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body && JSON.stringify(body),
      });
      const text = await res.body.text();
      if (res.statusCode !== kind.expect) detail = `${kind.name}: ${res.statusCode} ${text.slice(0, 160)}`;
    } catch (error) {
      detail = `${kind.name}: ${error}`;
    }
    inFlight -= 1;
    const into = current();
    into.requests += 1;
    into.latencies.push(performance.now() - started);
    if (detail !== undefined) {
      into.errors += 1;
      if (errorSamples.length < 5) errorSamples.push(detail);
    }
  };
  let due = 0;
  let dueProvisioning = 0;
  let last = start;
  await new Promise((resolve) => {
    const sampler = setInterval(() => {
      const rss = rssOf(server.pid);
      if (rss !== null) current().rss.push(rss);
    }, 1000);
    const tick = setInterval(() => {
      const now = performance.now();
      due += (rate * (now - last)) / 1000;
      dueProvisioning += (provisioningRate * (now - last)) / 1000;
      last = now;
      for (; dueProvisioning >= 1; dueProvisioning -= 1) void send(provision);
      for (; due >= 1; due -= 1) {
        if (inFlight >= IN_FLIGHT_CAP) current().shed += 1;
        else void send(weights[sent++ % weights.length]);
      }
      if (now - start >= seconds * 1000) {
        clearInterval(tick);
        clearInterval(sampler);
        resolve();
      }
    }, 5);
  });
  while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  await pool.close();
  return { slices, errorSamples, counts };
}

/** Pooled figures of several slices: requests, errors, p50, p99, mean RSS. */
function window(slices) {
  const latencies = slices.flatMap((s) => s.latencies).sort((a, b) => a - b);
  const rss = slices.flatMap((s) => s.rss);
  return {
    requests: slices.reduce((a, s) => a + s.requests, 0),
    errors: slices.reduce((a, s) => a + s.errors, 0),
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    rss: rss.reduce((a, b) => a + b, 0) / Math.max(1, rss.length),
  };
}

module.exports = { load, window };
