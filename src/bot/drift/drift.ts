import type { DriftAnswerData } from './driftVerbData';
import type { TurnContext } from 'botbuilder';
import type { StewardClient } from '../../client';
import { viewerOfTurn } from '../conversations/cardViewer';
import { cardReply, type Reply } from '../conversations/reply';
import type { CardViewer } from '../cards/cardRefresh';
import type { BotIdentity } from '../shared/botIdentity';
import {
  type CardDeliveryDependencies,
  postToEach,
  retryUndelivered,
  updateEach,
} from '../shared/cardsForPeople';
import { type DriftPart, renderDriftCard } from './driftCard';
import { nameTranslationsOf } from '../shared/templateTexts';
import { type DriftCardState, type DriftRecord, driftRecordKey } from './driftCardState';

/** What the drift conversation needs. */
export interface DriftDependencies extends CardDeliveryDependencies {
  client: StewardClient;
  identity: BotIdentity;
  driftCardState: DriftCardState;
}

/** What a card's button carries. */
type Json = Record<string, unknown>;
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The `team_drift_owners_asked` payload, read field by field; undefined when it is not one. */
function askedEvent(payload: Json) {
  const team = (payload.team ?? {}) as Json;
  const template = (payload.template ?? {}) as Json;
  const version = Number(template.version);
  if (!text(team.id) || !Number.isInteger(version)) return undefined;
  const list = (value: unknown): Json[] =>
    Array.isArray(value) ? value.filter((x): x is Json => !!x && typeof x === 'object') : [];
  return {
    teamId: text(team.id),
    teamName: text(team.displayName),
    templateName: text(template.name),
    templateTranslations: nameTranslationsOf(template),
    version,
    owners: list(payload.owners)
      .map((o) => text(o.id))
      .filter(Boolean),
    parts: list(payload.differences).map((d): DriftPart => ({ kind: text(d.kind), name: text(d.name) })),
  };
}

function cardOf(record: DriftRecord, personId: string, viewer: CardViewer) {
  const answer = record.answer && {
    name: record.answer.name,
    self: record.answer.id === personId,
    answer: record.answer.answer,
  };
  return renderDriftCard({ ...record, answer }, viewer.reader);
}

const answered = (record: DriftRecord) => record.answer !== null;

/**
 * The owners' card about a template's new version (`team_drift_owners_asked`): each owner gets it
 * in their language; **Add them** queues the job that adds the parts (in the owner's name),
 * **Not now** is recorded; every owner's card then says what was answered, and by whom.
 */
export class DriftConversation {
  constructor(private readonly deps: DriftDependencies) {}

  /** Sends the event's cards to each owner who has none yet. */
  async announce(payload: Json): Promise<void> {
    const event = askedEvent(payload);
    if (!event || event.parts.length === 0) return;
    const { driftCardState, log } = this.deps;
    const { teamId, version } = event;
    const fresh: DriftRecord = {
      teamId,
      teamName: event.teamName,
      templateName: event.templateName,
      ...(event.templateTranslations ? { templateTranslations: event.templateTranslations } : {}),
      version,
      parts: event.parts,
      cards: {},
      answer: null,
    };
    await driftCardState.update(version, teamId, (latest) => (latest ? undefined : fresh));
    const unreached = await postToEach(
      this.deps,
      event.owners,
      {
        key: driftRecordKey(version, teamId),
        load: () => driftCardState.record(version, teamId),
        update: (change) => driftCardState.update(version, teamId, change),
      },
      cardOf,
      answered,
    );
    if (unreached.length > 0)
      log.warn(
        { teamId, unreached: unreached.length },
        "some owners were not reached about their template's changes",
      );
  }

  /**
   * The job that adds the parts ended (`team_drift_applied`, `team_drift_apply_failed`): every
   * owner's card says so, instead of "Steward is adding…" for ever.
   */
  async showOutcome(payload: Json, outcome: 'applied' | 'failed'): Promise<void> {
    const teamId = text(((payload.team ?? {}) as Json).id);
    const version = Number(((payload.template ?? {}) as Json).version);
    if (!teamId || !Number.isInteger(version)) return;
    const record = await this.deps.driftCardState.update(version, teamId, (latest) =>
      // Noted even before the answer is (the job may end first); drawn once the answer is "add".
      latest && latest.outcome !== outcome ? { ...latest, outcome } : undefined,
    );
    if (record?.answer) await updateEach(this.deps, record, cardOf);
  }

  /** `personId` was just reached: their drift cards that could not be delivered go out now. */
  retryFor(personId: string): Promise<void> {
    const { driftCardState } = this.deps;
    const named = (key: string) => {
      const [, version, ...team] = key.split('/');
      return [Number(version), team.join('/')] as const;
    };
    return retryUndelivered(
      this.deps,
      personId,
      'drift/',
      {
        load: (key) => driftCardState.record(...named(key)),
        update: (key, change) => driftCardState.update(...named(key), change),
      },
      cardOf,
      answered,
    );
  }

  /** "Add them" or "Not now" pressed: the API records the answer (and queues the job for "Add them"). */
  async answer(
    context: TurnContext,
    api: StewardClient,
    data: DriftAnswerData,
    answer: 'add' | 'notNow',
  ): Promise<Reply> {
    const viewer = viewerOfTurn(context);
    const me = context.activity.from.aadObjectId ?? '';
    const teamId = String(data.teamId ?? '');
    const version = Number(data.version);
    const { driftCardState } = this.deps;
    const earlier = await driftCardState.record(version, teamId);
    // Answered already (by this owner or another): the card says so, and nothing is asked twice.
    if (earlier?.answer) return cardReply(cardOf(earlier, me, viewer), true);
    await api.answerTeamDrift(teamId, { answer });
    const name = context.activity.from.name ?? '';
    const record = await driftCardState.update(version, teamId, (latest) =>
      latest && !latest.answer ? { ...latest, answer: { id: me, name, answer } } : undefined,
    );
    const current = record ?? (await driftCardState.record(version, teamId));
    if (!current) {
      const unknown: DriftRecord = {
        teamId,
        teamName: '',
        templateName: '',
        version,
        parts: [],
        cards: {},
        answer: { id: me, name, answer },
      };
      return cardReply(cardOf(unknown, me, viewer), true);
    }
    await updateEach(this.deps, current, cardOf, me);
    return cardReply(cardOf(current, me, viewer), true);
  }
}
