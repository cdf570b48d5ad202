export { FAKE_GRAPH_CERT } from './certificate';
export { type GraphLimits, PUBLISHED_LIMITS } from './limits';
export type { FakeGraphOptions, FakeUser, LoggedRequest } from './records';
export { FakeGraph } from './server';
