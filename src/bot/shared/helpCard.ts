import { renderCard, type AdaptiveCardAttachment } from '../cards/adaptiveCard';
import { clip } from '../cards/cardText';
import { DEFAULT_READER, type Reader, say } from '../i18n/catalog';
import helpCardTemplate from './helpCard.json';

/** What the help card shows. */
export interface HelpCardData {
  /** The text Steward did not understand, when help answers an unknown message; null otherwise. */
  notUnderstood: string | null;
  /** The text is about something Steward does not look after (sport, the canteen), not a request misread. */
  offTopic?: boolean;
}

/** The commands Steward understands, with buttons; also the answer to text it does not understand. */
export function renderHelpCard(data: HelpCardData, reader: Reader = DEFAULT_READER): AdaptiveCardAttachment {
  const text = clip(data.notUnderstood?.replace(/\s+/g, ' ').trim() ?? '', 120);
  return renderCard('helpCard', helpCardTemplate, {
    notUnderstood: text,
    labels: {
      notUnderstood: say(reader, data.offTopic ? 'help.offTopic' : 'help.notUnderstood', { text }),
      title: say(reader, 'help.title'),
      newTeam: say(reader, 'help.newTeam'),
      myRequests: say(reader, 'help.myRequests'),
      status: say(reader, 'help.status'),
      statusCommand: say(reader, 'help.statusCommand'),
      newTeamCommand: say(reader, 'help.command.newTeam'),
      myRequestsCommand: say(reader, 'help.command.myRequests'),
      languageCommand: say(reader, 'help.command.language'),
      helpCommand: say(reader, 'help.command.help'),
      language: say(reader, 'help.language'),
      help: say(reader, 'help.help'),
      approvers: say(reader, 'help.approvers'),
      fallback: say(reader, 'help.fallback'),
      requestTeam: say(reader, 'action.requestTeam'),
      myRequestsButton: say(reader, 'action.myRequests'),
      myApprovals: say(reader, 'help.myApprovals'),
      myApprovalsCommand: say(reader, 'help.myApprovalsCommand'),
      withdraw: say(reader, 'help.withdraw'),
      withdrawCommand: say(reader, 'help.withdrawCommand'),
      myApprovalsButton: say(reader, 'action.myApprovals'),
    },
  });
}
