/** Steward's Adaptive Cards: one typed renderer per template in `cards/`, and the verbs they send. */
export * from './adaptiveCard';
export * from './cardVerbs';
export * from './welcomeCard';
export * from './helpCard';
export * from './galleryCard';
export * from './requestFormCard';
export * from './confirmationCard';
export * from './progressCard';
export * from './progressSteps';
export * from './requestEndedCard';
export * from './jobSummary';
export * from './approvalCard';
export * from './stageNotes';
export * from './approvalDecidedCard';
export * from './approvalReadOnlyCard';
export * from './myRequestsCard';
export * from './errorCard';
