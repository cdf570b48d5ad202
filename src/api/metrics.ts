import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/** Prometheus metrics of one server: request counts and latencies per operationId. */
export class ApiMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'steward_http_requests_total',
    help: 'HTTP requests served, by operationId, method and status.',
    labelNames: ['operation', 'method', 'status'] as const,
    registers: [this.registry],
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

  /** Each label set's counter and histogram, found once: prom-client hashes the labels on every call. */
  private readonly series = new Map<string, { count: { inc(): void }; time: { observe(v: number): void } }>();

  /** Records one served request. */
  observe(operation: string, method: string, status: number, seconds: number): void {
    const key = `${operation} ${method} ${status}`;
    let series = this.series.get(key);
    if (!series) {
      series = {
        count: this.requests.labels({ operation, method, status: String(status) }),
        time: this.latency.labels({ operation, method }),
      };
      this.series.set(key, series);
    }
    series.count.inc();
    series.time.observe(seconds);
  }
}
