import { Histogram, Registry } from 'prom-client';
import { ApiMetrics } from '../../src/api/metrics';

const NAME = 'steward_http_request_duration_seconds';

/** The lines of one metric in a registry's text. */
async function linesOf(registry: Registry, name: string): Promise<string[]> {
  return (await registry.metrics()).split('\n').filter((line) => line.includes(name));
}

/** The latency histogram as prom-client writes it when each value is observed on its own. */
async function observedOneByOne(values: Array<[string, string, number]>): Promise<string[]> {
  const registry = new Registry();
  const histogram = new Histogram({
    name: NAME,
    help: 'Time to serve an HTTP request, by operationId.',
    labelNames: ['operation', 'method'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  for (const [operation, method, seconds] of values) histogram.observe({ operation, method }, seconds);
  return linesOf(registry, NAME);
}

describe('API metrics', () => {
  const first: Array<[string, string, number]> = [
    ['getMyCatalogTemplates', 'GET', 0.0004],
    ['getMyCatalogTemplates', 'GET', 0.001],
    ['getMyCatalogTemplates', 'GET', 0.0031],
    ['setPlatformTeamTemplate', 'PUT', 0.2],
    ['getMyCatalogTemplates', 'GET', 7],
  ];
  const later: Array<[string, string, number]> = [
    ['getMyCatalogTemplates', 'GET', 0.05],
    ['unknown', 'POST', 0],
  ];

  test('the latency histogram reads as prom-client observing each request, across scrapes', async () => {
    const metrics = new ApiMetrics();
    for (const [operation, method, seconds] of first) metrics.observe(operation, method, 200, seconds);
    expect(await linesOf(metrics.registry, NAME)).toEqual(await observedOneByOne(first));
    for (const [operation, method, seconds] of later) metrics.observe(operation, method, 404, seconds);
    expect(await linesOf(metrics.registry, NAME)).toEqual(await observedOneByOne([...first, ...later]));
  });

  test('requests are counted per operation, method and status', async () => {
    const metrics = new ApiMetrics();
    metrics.observe('getMyCatalogTemplates', 'GET', 200, 0.001);
    metrics.observe('getMyCatalogTemplates', 'GET', 200, 0.001);
    metrics.observe('getMyCatalogTemplates', 'GET', 429, 0.001);
    expect(await linesOf(metrics.registry, 'steward_http_requests_total{')).toEqual([
      'steward_http_requests_total{operation="getMyCatalogTemplates",method="GET",status="200"} 2',
      'steward_http_requests_total{operation="getMyCatalogTemplates",method="GET",status="429"} 1',
    ]);
  });

  test('a value that is not a number is refused, as prom-client refuses it', () => {
    expect(() => new ApiMetrics().observe('x', 'GET', 200, Number.NaN)).toThrow(TypeError);
  });
});
