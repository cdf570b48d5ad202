import type { Logger } from 'pino';
import type { ApiMetrics } from '../metrics';
import type { Route } from '../route';
import type { RequestState } from './state';

/**
 * Stage 6, log: every request, answered or failed, is counted in the metrics and, at `info`,
 * logged in one line (ids, operation, status, time, caller; never a token or a body).
 */
export function logRequest(
  deps: { metrics: Pick<ApiMetrics, 'observe'>; logger: Pick<Logger, 'info' | 'isLevelEnabled'> },
  route: Pick<Route, 'method'> & { operationId: string },
  state: RequestState,
): void {
  const seconds = Number(process.hrtime.bigint() - state.started) / 1e9;
  deps.metrics.observe(route.operationId, route.method, state.status, seconds);
  if (deps.logger.isLevelEnabled('info')) {
    deps.logger.info(
      {
        requestId: state.requestId,
        operation: route.operationId,
        status: state.status,
        ms: Math.round(seconds * 1e4) / 10,
        caller: state.caller?.id,
        onBehalfOf: state.onBehalfOf,
      },
      'request',
    );
  }
}
