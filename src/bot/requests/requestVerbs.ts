import { z } from 'zod';
import { anyData, cardData, onlyTrue, textOrEmpty, textOrNumber } from '../cards/cardData';
import { CardVerb } from '../cards/cardVerbs';
import { readerOfTurn } from '../conversations/reply';
import { submitRequestData } from '../shared/requestFormData';
import { type FailureLabel, type FeatureVerbs, verb } from '../verbTypes';
import { THROUGH_API } from '../verbAccess';
import { applyLabel } from './applyLabel';
import { takeTyped } from './keptTyped';
import { myRequests } from './myRequests';
import { pageOf, requesterOf, requestForm, templateGallery } from './requestTeam';
import { tryAgain } from './retryRequest';
import { statusCard } from './statusCard';
import { checkName } from './submitRequest';
import { withdrawRequest } from './withdraw';
import { myRequestsData, withdrawData, applyLabelData } from './requestVerbData';

/** Data of `showTemplates`: the zero-based gallery page to show (cards send it as a number or as text). */
export const showTemplatesData = cardData({ page: z.unknown().transform(pageOf) });

/** Data of `pickTemplate`. */
export const pickTemplateData = cardData({ templateId: textOrNumber });

/**
 * Data of `showStatus` (a card's `jobId`, or a typed `status <team name>`'s `request`: the request
 * named by its team's name or its id) and of `retryRequest`.
 */
export const jobActionData = cardData({ jobId: textOrEmpty, request: textOrEmpty, newCard: onlyTrue });

const LIST_TEMPLATES: FailureLabel = { subject: 'templates', doing: 'listTemplates' };

/** The verbs of team requests: the gallery, the form, a request's progress, the person's requests. */
export const requestVerbs = {
  [CardVerb.requestTeam]: verb({
    data: anyData,
    access: THROUGH_API,
    failure: LIST_TEMPLATES,
    asPerson: (api, { context }) => templateGallery(api, 0, readerOfTurn(context)),
  }),
  [CardVerb.showTemplates]: verb({
    data: showTemplatesData,
    access: THROUGH_API,
    failure: LIST_TEMPLATES,
    asPerson: (api, { context, data }) => templateGallery(api, data.page, readerOfTurn(context), true),
  }),
  [CardVerb.pickTemplate]: verb({
    data: pickTemplateData,
    access: THROUGH_API,
    failure: { subject: 'template', doing: 'openTemplate' },
    asPerson: async (api, { context, data, deps }) => {
      // What the person typed when no template could be told from it: on this template's form.
      const kept = await takeTyped(deps.requestState, context);
      return requestForm(
        api,
        data.templateId ?? '',
        {
          requester: requesterOf(context),
          reader: readerOfTurn(context),
          ...(kept && { values: kept.values, people: kept.people, understood: kept.understood }),
        },
        true,
        deps.log,
      );
    },
  }),
  [CardVerb.checkName]: verb({
    data: submitRequestData,
    access: THROUGH_API,
    failure: { subject: 'template', doing: 'checkName' },
    asPerson: (api, { context, data, deps }) => checkName(context, api, data, deps.log),
  }),
  [CardVerb.submitRequest]: verb({
    data: submitRequestData,
    access: THROUGH_API,
    failure: { subject: 'template', doing: 'requestTeam' },
    asPerson: (api, { context, data, deps }) => deps.submitter.submit(context, api, data),
  }),
  [CardVerb.showStatus]: verb({
    data: jobActionData,
    access: THROUGH_API,
    failure: { subject: 'request', doing: 'showRequest' },
    asPerson: (api, { context, data, deps, typed }) =>
      statusCard(api, context, deps, {
        cardJobId: data.jobId,
        request: data.request,
        typed,
        newCard: data.newCard === true,
      }),
  }),
  [CardVerb.retryRequest]: verb({
    data: jobActionData,
    access: THROUGH_API,
    failure: { subject: 'request', doing: 'retryRequest' },
    asPerson: (api, { context, data, deps }) => tryAgain(context, api, deps, data.jobId),
  }),
  [CardVerb.myRequests]: verb({
    data: myRequestsData,
    access: THROUGH_API,
    failure: { subject: 'requests', doing: 'listRequests' },
    asPerson: (api, { context, data }) => myRequests(api, readerOfTurn(context), data.waiting === true),
  }),
  [CardVerb.withdrawRequest]: verb({
    data: withdrawData,
    access: THROUGH_API,
    failure: { subject: 'request', doing: 'withdraw' },
    asPerson: (api, { context, data, deps }) => withdrawRequest(context, api, deps, data),
  }),
  [CardVerb.applyLabel]: verb({
    data: applyLabelData,
    access: THROUGH_API,
    failure: { subject: 'team', doing: 'applyLabel' },
    asPerson: (api, { context, data, deps }) => applyLabel(context, api, deps.progress, data),
  }),
} satisfies FeatureVerbs;
