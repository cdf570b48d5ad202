import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/** One label set's tallies, found once: prom-client validates and hashes the labels on every call. */
interface Series {
  labels: { operation: string; method: string; status: string };
  /** Requests counted since the last scrape, added to the counter when it is read. */
  unscraped: number;
  time: { observe(seconds: number): void };
}

/** Prometheus metrics of one server: request counts and latencies per operationId. */
export class ApiMetrics {
  readonly registry = new Registry();
  private readonly series = new Map<string, Series>();
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
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
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
        time: this.latency.labels({ operation, method }),
      };
      this.series.set(key, series);
    }
    series.unscraped += 1;
    series.time.observe(seconds);
  }

  private addUnscraped(): void {
    for (const series of this.series.values()) {
      if (series.unscraped === 0) continue;
      this.requests.inc(series.labels, series.unscraped);
      series.unscraped = 0;
    }
  }
}
