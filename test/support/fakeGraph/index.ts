export { FAKE_GRAPH_CERT } from './certificate';
export { FakeGraph, type FakeGraphOptions, type FakeUser, type LoggedRequest } from './server';
