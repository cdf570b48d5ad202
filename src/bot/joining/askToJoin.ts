import type { StewardClient } from '../../client';
import { isStatus } from '../apiFailures';
import type { AskToJoinData } from './joiningVerbData';
import { type Reader, say } from '../i18n/catalog';
import type { Reply } from '../conversations/reply';

/** The longest message the API takes with a request to join. */
const MESSAGE_MAX = 500;

/**
 * "Ask to join" on the similar teams card: asks the API to let the person into the team, with the
 * words they typed (cut to what the API takes). The owners get their card from the event; the
 * person is told here whether the owners were asked or the team let them in at once.
 */
export async function askToJoin(api: StewardClient, data: AskToJoinData, reader: Reader): Promise<Reply> {
  const typed = typeof data.inputId === 'string' ? data[data.inputId] : undefined;
  const message = typeof typed === 'string' ? typed.trim().slice(0, MESSAGE_MAX) : '';
  const teamId = typeof data.teamId === 'string' ? data.teamId : '';
  const team = typeof data.teamName === 'string' && data.teamName ? data.teamName : teamId;
  try {
    const request = await api.createTeamJoinRequest(teamId, message ? { message } : {});
    return {
      kind: 'text',
      text: say(reader, request.direct ? 'joining.joinedDirectly' : 'joining.requestSent', { team }),
    };
  } catch (error) {
    if (isStatus(error, 409)) return { kind: 'text', text: say(reader, 'joining.alreadyAsked', { team }) };
    throw error;
  }
}
