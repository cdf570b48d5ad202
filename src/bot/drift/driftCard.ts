import { DEFAULT_READER, namesIn, type Reader, say, sayCount } from '../i18n/catalog';
import type { MessageKey } from '../i18n/en';
import { type AdaptiveCardAttachment, renderCard } from '../cards/adaptiveCard';
import { clip, markdownText } from '../cards/cardText';
import { type NameTranslations, templateNameIn } from '../shared/templateTexts';
import driftCardTemplate from './driftCard.json';

/** One part the template now has that the team lacks: its kind (as the API names it) and name. */
export interface DriftPart {
  kind: string;
  name: string;
}

/** What the owners' card about a template's new version shows. */
export interface DriftCardData {
  teamId: string;
  teamName: string;
  templateName: string;
  /** The template's name in other languages, as the event recorded it. */
  templateTranslations?: NameTranslations;
  /** The template's version the owners are asked about. */
  version: number;
  parts: DriftPart[];
  /** The answer, once an owner gave it: who ('' when unknown), whether it is the reader, which. */
  answer?: { name: string; self: boolean; answer: 'add' | 'notNow' } | null;
  /** How the job that adds the parts ended (`team_drift_applied` / `_apply_failed`); absent while it runs. */
  outcome?: 'applied' | 'failed';
}

/** Parts named on a card; the others are counted. */
const PARTS_SHOWN = 5;

const PART_KEYS: Record<string, MessageKey> = {
  channel: 'drift.part.channel',
  tab: 'drift.part.tab',
  permanentOwner: 'drift.part.permanentOwner',
  permanentMember: 'drift.part.permanentMember',
  sensitivityLabel: 'drift.part.sensitivityLabel',
  channelFile: 'drift.part.channelFile',
  planBucket: 'drift.part.planBucket',
  tag: 'drift.part.tag',
  app: 'drift.part.app',
  teamSetting: 'drift.part.teamSetting',
};

/** "a channel named **Deliverables**, a tab named **Wiki (Planning)** and 2 more changes", in the reader's words. */
export function partsIn(reader: Reader, parts: readonly DriftPart[]): string {
  const said = parts
    .slice(0, PARTS_SHOWN)
    .map((part) =>
      say(reader, PART_KEYS[part.kind] ?? 'drift.part.other', { name: markdownText(clip(part.name, 120)) }),
    );
  if (parts.length > PARTS_SHOWN) said.push(sayCount(reader, 'drift.more', parts.length - PARTS_SHOWN));
  return namesIn(reader, said);
}

/**
 * The card a team's owners get when its template's new version has parts the team lacks: "Add
 * them" or "Not now", turned into the answer once an owner gave it.
 */
export function renderDriftCard(
  data: DriftCardData,
  reader: Reader = DEFAULT_READER,
): AdaptiveCardAttachment {
  const teamTitle = clip(data.teamName, 200);
  const templateTitle = clip(
    templateNameIn({ name: data.templateName, translations: data.templateTranslations }, reader),
    200,
  );
  const team = markdownText(teamTitle);
  const template = markdownText(templateTitle);
  const parts = partsIn(reader, data.parts);
  // "Add it" for one part, "Add them" for more: the sentences agree with what they add.
  const count = Math.max(1, data.parts.length);
  const common = {
    teamId: data.teamId,
    version: data.version,
    fallback: say(reader, 'drift.fallback', { template: templateTitle }),
    labels: { add: sayCount(reader, 'drift.add', count), notNow: say(reader, 'drift.notNow') },
  };
  const answer = data.answer;
  if (answer) {
    const name = clip(answer.name || say(reader, 'drift.anotherOwner'), 120);
    const added = answer.answer === 'add';
    if (added && data.outcome) {
      const applied = data.outcome === 'applied';
      return renderCard('driftCard', driftCardTemplate, {
        ...common,
        title: say(reader, applied ? 'drift.appliedTitle' : 'drift.failedTitle', { team: teamTitle }),
        headerStyle: applied ? 'good' : 'attention',
        message: !applied
          ? say(reader, 'drift.failed', { parts, team, template })
          : answer.self
            ? say(reader, 'drift.youApplied', { parts, team })
            : sayCount(reader, 'drift.applied', count, { name, parts, team }),
        canAnswer: false,
      });
    }
    const message = added
      ? answer.self
        ? say(reader, 'drift.youAdded', { parts, team })
        : sayCount(reader, 'drift.added', count, { name, parts, team })
      : answer.self
        ? say(reader, 'drift.youDeclined', { team, template })
        : sayCount(reader, 'drift.declined', count, { name, template });
    return renderCard('driftCard', driftCardTemplate, {
      ...common,
      title: say(reader, added ? 'drift.addedTitle' : 'drift.declinedTitle', { team: teamTitle }),
      headerStyle: added ? 'good' : 'default',
      message,
      canAnswer: false,
    });
  }
  return renderCard('driftCard', driftCardTemplate, {
    ...common,
    title: say(reader, 'drift.title', { template: templateTitle }),
    headerStyle: 'accent',
    message: sayCount(reader, 'drift.ask', count, { template, parts, team }),
    canAnswer: true,
  });
}
