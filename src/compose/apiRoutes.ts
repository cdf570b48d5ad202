import { auditRoutes } from '../api/routes/audit';
import { catalogRoutes } from '../api/routes/catalog';
import { directoryRoutes } from '../api/routes/directory';
import { driftRoutes } from '../api/routes/drift';
import { hookRoutes } from '../api/routes/hooks';
import { joiningRoutes } from '../api/routes/joining';
import { lifecycleRoutes } from '../api/routes/lifecycle/lifecycle';
import { lifecycleResponseRoutes } from '../api/routes/lifecycle/lifecycleResponses';
import { metadataRoutes } from '../api/routes/metadata';
import { provisioningRoutes } from '../api/routes/provisioning';
import { reportRoutes } from '../api/routes/reports/reports';
import { sensitivityLabelRoutes } from '../api/routes/sensitivityLabels';
import { teamRoutes } from '../api/routes/teams';
import type { Route } from '../api/route';
import type { Services } from './services';

/** Every operation of the governance API, bound to the services that answer it. */
export function apiRoutes(s: Services): Route[] {
  return [
    ...catalogRoutes(s.catalog),
    ...driftRoutes(s.drift),
    ...directoryRoutes(s.directory),
    ...provisioningRoutes(s.provisioning, s.approvals, s.joining),
    ...teamRoutes(s.teams),
    ...joiningRoutes(s.joining),
    ...sensitivityLabelRoutes(s.labels),
    ...hookRoutes(s.hooks, s.hookSubscriptions),
    ...metadataRoutes(s.metadata),
    ...auditRoutes(s.audit),
    ...reportRoutes(s.reports),
    ...lifecycleRoutes(s.lifecycle, s.lifecycleEvaluations, s.lifecycleAnswers),
    ...lifecycleResponseRoutes(s.lifecycleResponses, s.governanceManagers),
  ];
}

/**
 * The routes as documents describe them, with no service behind them: building a route only
 * keeps its service for later calls, so a stand-in that refuses every use is enough to read the
 * route table (the Power Platform connector is written from it offline).
 */
export function documentedRoutes(): Route[] {
  const refuse = (): never => {
    throw new Error('These routes describe the API; they cannot serve it.');
  };
  const service = new Proxy({}, { get: refuse, apply: refuse });
  return apiRoutes(new Proxy({} as Services, { get: () => service }));
}
