import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5] as const;

/**
 * One operation and method's latencies since the last scrape, tallied per bucket (the first bucket
 * whose bound is at least the value, as prom-client counts) and folded into the histogram when it is
 * read: prom-client validates and hashes the labels on every observation, even through a child.
 */
interface LatencyTally {
  labels: { operation: string; method: string };
  counts: number[];
  sum: number;
  count: number;
}

/** One label set's tallies, found once. */
interface Series {
  labels: { operation: string; method: string; status: string };
  /** Requests counted since the last scrape, added to the counter when it is read. */
  unscraped: number;
  latency: LatencyTally;
}

/** What prom-client keeps for one label set of a histogram (its `hashMap` values). */
interface HistogramEntry {
  labels: object;
  bucketValues: Record<string, number>;
  sum: number;
  count: number;
}

/** Prometheus metrics of one server: request counts and latencies per operationId. */
export class ApiMetrics {
  readonly registry = new Registry();
  private readonly series = new Map<string, Series>();
  private readonly latencies = new Map<string, LatencyTally>();
  private readonly requests = new Counter({
    name: 'steward_http_requests_total',
    help: 'HTTP requests served, by operationId, method and status.',
    labelNames: ['operation', 'method', 'status'] as const,
    registers: [this.registry],
    // Counted in memory per request, added to the counter when it is scraped.
    collect: () => this.addUnscraped(),
  });
  private readonly latency = new Histogram({
    name: 'steward_http_request_duration_seconds',
    help: 'Time to serve an HTTP request, by operationId.',
    labelNames: ['operation', 'method'] as const,
    buckets: [...LATENCY_BUCKETS],
    registers: [this.registry],
    collect: () => this.addUntimed(),
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'steward_' });
  }

  /** Records one served request. */
  observe(operation: string, method: string, status: number, seconds: number): void {
    const key = `${operation} ${method} ${status}`;
    let series = this.series.get(key);
    if (!series) {
      series = {
        labels: { operation, method, status: String(status) },
        unscraped: 0,
        latency: this.latencyOf(operation, method),
      };
      this.series.set(key, series);
    }
    series.unscraped += 1;
    if (!Number.isFinite(seconds)) throw new TypeError(`Value is not a valid number: ${seconds}`);
    const tally = series.latency;
    let bucket = 0;
    while (bucket < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[bucket]!) bucket += 1;
    if (bucket < LATENCY_BUCKETS.length) tally.counts[bucket]! += 1;
    tally.sum += seconds;
    tally.count += 1;
  }

  private latencyOf(operation: string, method: string): LatencyTally {
    const key = `${operation} ${method}`;
    let tally = this.latencies.get(key);
    if (!tally) {
      tally = { labels: { operation, method }, counts: LATENCY_BUCKETS.map(() => 0), sum: 0, count: 0 };
      this.latencies.set(key, tally);
    }
    return tally;
  }

  private addUnscraped(): void {
    for (const series of this.series.values()) {
      if (series.unscraped === 0) continue;
      this.requests.inc(series.labels, series.unscraped);
      series.unscraped = 0;
    }
  }

  /**
   * Adds the tallied latencies to the histogram's label sets. prom-client has no call that adds a
   * tally, so this writes its entries (made by its `zero`, which keeps the labels object given);
   * test/api/metrics.test.ts compares the result with prom-client's own `observe`.
   */
  private addUntimed(): void {
    const entries = new Map<object, HistogramEntry>();
    const entriesOf = () => (this.latency as unknown as { hashMap: Record<string, HistogramEntry> }).hashMap;
    for (const entry of Object.values(entriesOf())) entries.set(entry.labels, entry);
    for (const tally of this.latencies.values()) {
      if (tally.count === 0) continue;
      let entry = entries.get(tally.labels);
      if (!entry) {
        this.latency.zero(tally.labels);
        entry = Object.values(entriesOf()).find((e) => e.labels === tally.labels)!;
      }
      LATENCY_BUCKETS.forEach((bound, i) => {
        entry.bucketValues[bound] = (entry.bucketValues[bound] ?? 0) + tally.counts[i]!;
        tally.counts[i] = 0;
      });
      entry.sum += tally.sum;
      entry.count += tally.count;
      tally.sum = 0;
      tally.count = 0;
    }
  }
}
