import { ConfigError } from '../../src/config';
import { configLoads, DEMO_ENV, GRAPH_APP } from '../support/configLoads';

const GRAPH = { ...GRAPH_APP, STEWARD_GRAPH_CLIENT_SECRET: 's' };

describe('webhook settings', () => {
  const config = configLoads('config', DEMO_ENV);
  const load = (env: Record<string, string> = {}) => config.load(env).webhooks;

  test('defaults: 2 retries 10 s apart, 10 s deadline, inactive after 5 failed deliveries, 64 KiB read', () => {
    expect(load()).toEqual({
      allowLoopback: true,
      retries: 2,
      retryDelayMs: 10_000,
      timeoutMs: 10_000,
      failureThreshold: 5,
      maxResponseBytes: 65_536,
    });
  });

  test('loopback receivers are allowed by default with the embedded platform only', () => {
    expect(load(GRAPH).allowLoopback).toBe(false);
    expect(load({ ...GRAPH, STEWARD_WEBHOOK_ALLOW_LOOPBACK: 'true' }).allowLoopback).toBe(true);
    expect(load({ STEWARD_WEBHOOK_ALLOW_LOOPBACK: 'false' }).allowLoopback).toBe(false);
  });

  test('each setting is read and range-checked', () => {
    expect(
      load({
        STEWARD_WEBHOOK_RETRIES: '0',
        STEWARD_WEBHOOK_RETRY_DELAY_MS: '250',
        STEWARD_WEBHOOK_TIMEOUT_MS: '3000',
        STEWARD_WEBHOOK_FAILURE_THRESHOLD: '20',
        STEWARD_WEBHOOK_MAX_RESPONSE_BYTES: '1024',
      }),
    ).toMatchObject({
      retries: 0,
      retryDelayMs: 250,
      timeoutMs: 3000,
      failureThreshold: 20,
      maxResponseBytes: 1024,
    });
    for (const [name, value] of [
      ['STEWARD_WEBHOOK_ALLOW_LOOPBACK', 'maybe'],
      ['STEWARD_WEBHOOK_RETRIES', '-1'],
      ['STEWARD_WEBHOOK_RETRIES', '21'],
      ['STEWARD_WEBHOOK_RETRY_DELAY_MS', '1.5'],
      ['STEWARD_WEBHOOK_TIMEOUT_MS', '0'],
      ['STEWARD_WEBHOOK_FAILURE_THRESHOLD', '0'],
      ['STEWARD_WEBHOOK_MAX_RESPONSE_BYTES', 'lots'],
    ] as const) {
      expect(() => load({ [name]: value })).toThrow(ConfigError);
      expect(() => load({ [name]: value })).toThrow(name);
    }
  });
});
