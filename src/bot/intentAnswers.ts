import { approvalIntents } from './approvals/approvalIntents';
import type { EachKeyOnce } from './featureParts';
import { lifecycleIntents } from './lifecycle/lifecycleIntents';
import { requestIntents } from './requests/requestIntents';
import type { IntentAnswer } from './understanding/answerParts';
import type { Intent } from './understanding/types';
import { welcomeIntents } from './welcome/welcomeIntents';

/** Each feature's answers to the intents it owns (`<feature>/<feature>Intents.ts`). */
type Parts = [typeof requestIntents, typeof approvalIntents, typeof lifecycleIntents, typeof welcomeIntents];
const _eachIntentOnce: EachKeyOnce<Parts> = true;

/**
 * The answer to every intent the understanding engine tells apart (`understanding/types.ts`), `none`
 * included. The compiler refuses an intent that no feature answers, and one two features answer.
 */
export const INTENT_ANSWERS: Readonly<Record<Intent, IntentAnswer>> = {
  ...requestIntents,
  ...approvalIntents,
  ...lifecycleIntents,
  ...welcomeIntents,
} satisfies Record<Intent, IntentAnswer>;
