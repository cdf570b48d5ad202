import type { StewardClient } from '../../client';
import { CardVerb } from '../cards/cardVerbs';
import { asCaller, cardReply, type Failure, type Reply } from '../conversations/reply';
import { type Reader, say } from '../i18n/catalog';
import { myTemplates } from '../shared/myTemplates';
import { type FeatureIntents, type IntentTurn, offered, withWords } from '../understanding/answerParts';
import type { Understanding } from '../understanding/types';
import { galleryTemplate, type GalleryTemplate } from './galleryCard';
import { findRequest, noSuchRequest } from './myRequests';
import { notOfferedReply } from './notOfferedReply';
import { prefilledForm } from './prefilledForm';
import type { MyRequestsData } from './requestVerbData';
import { galleryOf } from './requestTeam';
import { renderTemplateChoicesCard } from './templateChoicesCard';

const LIST_TEMPLATES: Failure = { subject: 'templates', doing: 'listTemplates' };
const FIND_REQUEST: Failure = { subject: 'request', doing: 'withdraw' };

/** The intents of team requests: asking for a team, about one's requests, and which templates fit. */
export const requestIntents = {
  requestTeam: {
    readsTemplates: true,
    answer: ({ context, deps, understood, resolvePeople }) =>
      asCaller(context, deps, LIST_TEMPLATES, (api) =>
        prefilledForm(api, context, deps, understood, resolvePeople),
      ),
  },
  askRequestStatus: { answer: (turn) => requestsAsked(turn) },
  withdrawRequest: { answer: (turn) => withdrawAsked(turn) },
  askTemplates: {
    readsTemplates: true,
    answer: ({ context, deps, understood, reader }) =>
      asCaller(context, deps, LIST_TEMPLATES, (api) => suitableTemplates(api, understood, reader)),
  },
} satisfies FeatureIntents;

/**
 * `askRequestStatus`: the typed commands' own answers, through the verb table: `status <team>`
 * for one request by its name, `my requests` for all of them or only those still waiting.
 */
function requestsAsked({ understood, runVerb }: IntentTurn): Promise<Reply> {
  const name = understood.requestName?.replace(/\s+/g, ' ').trim();
  if (name) {
    return runVerb(CardVerb.showStatus, { request: name });
  }
  const data: MyRequestsData = understood.requestFilter === 'waiting' ? { waiting: true } : {};
  return runVerb(CardVerb.myRequests, { ...data });
}

/**
 * `withdrawRequest`: the named request's card asking to confirm the withdrawal (as its Withdraw
 * button does), or, with no name, the requests that can be withdrawn.
 */
function withdrawAsked({ context, deps, understood, reader, runVerb }: IntentTurn): Promise<Reply> {
  const name = understood.requestName?.replace(/\s+/g, ' ').trim();
  if (!name) return runVerb(CardVerb.withdrawRequest, {});
  return asCaller(context, deps, FIND_REQUEST, async (api) => {
    const jobId = await findRequest(api, name);
    return jobId === null ? noSuchRequest(name, reader) : runVerb(CardVerb.withdrawRequest, { jobId });
  });
}

/**
 * `askTemplates`: the person's templates that fit the purpose, best first, each with Request; the
 * gallery with a sentence when none of theirs fits, or when the message named no purpose.
 */
async function suitableTemplates(
  api: StewardClient,
  understood: Understanding,
  reader: Reader,
): Promise<Reply> {
  const mine = await myTemplates(api);
  const { fits, pointed } = offered(understood, mine);
  if (understood.notOffered) return notOfferedReply(mine, reader, understood.notOffered, fits[0]?.template);
  if (!pointed) return galleryOf(mine, 0, reader, false, say(reader, 'understood.templates.all'));
  const first = fits[0];
  if (!first)
    return galleryOf(
      mine,
      0,
      reader,
      false,
      withWords(reader, 'understood.templates.noneFits', 'understood.templates.noneFits.plain', pointed),
    );
  const templates = fits.flatMap(({ template }): GalleryTemplate[] => {
    const entry = galleryTemplate(template, reader);
    return entry ? [entry] : [];
  });
  const words = first.match.because.replace(/\s+/g, ' ').trim();
  return cardReply(renderTemplateChoicesCard({ words, templates }, reader));
}
