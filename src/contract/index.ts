/** The wire models shared by the server, the client and the tests. */
export * from './approvalPolicy';
export * from './catalog';
export * from './directory';
export * from './errors';
export { Flag, models, type ODataCollection } from './registry';
export * from './jobs';
export * from './limits';
export * from './metadata';
export * from './teams';
export * from './hooks';
export * from './events';
export * from './audit';
export * from './reports';
export * from './lifecycle';
export * from './lifecycleOwnerAnswers';
export * from './lifecycleResponses';
export * from './sensitivityLabels';
export * from './drift';
