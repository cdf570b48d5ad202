import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/config';
import { DEMO_CHOICES } from '../support/demoChoices';

const SECRET = 'a-secret-that-is-long-enough-for-hs256-0123456789';
const GRAPH = {
  STEWARD_PLATFORM: 'graph',
  STEWARD_GRAPH_TENANT_ID: 't',
  STEWARD_GRAPH_CLIENT_ID: 'c',
  STEWARD_GRAPH_CLIENT_SECRET: 's',
};

describe('webhook settings', () => {
  let cwd: string;
  beforeEach(() => {
    cwd = mkdtempSync(path.join(os.tmpdir(), 'steward-config-'));
  });
  afterEach(() => rmSync(cwd, { recursive: true, force: true }));
  const load = (env: Record<string, string> = {}) =>
    loadConfig({ ...DEMO_CHOICES, STEWARD_AUTH_SECRET: SECRET, ...env }, cwd).webhooks;

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
