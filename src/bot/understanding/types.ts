/**
 * What Steward understood of a message typed in its own words: the shapes the understanding
 * engine (`understand.ts`, `people.ts`) returns and the bot's answers (`answers.ts`) read.
 * Understanding runs locally; no message text leaves the deployment.
 */

/** The languages Steward understands; anything else is read as English and mostly not understood. */
export type UnderstoodLanguage = 'en' | 'fr';

/** What a message asks for. `none` when nothing was understood well enough to act on. */
export type Intent =
  /** Asks for a new team ("I'd like a team for the Contoso deal with Adele"). */
  | 'requestTeam'
  /** Asks who approves a template ("who has to approve a legal matter team?"). */
  | 'askApprovers'
  /** Asks about their own requests: all, those waiting, or one by its team's name. */
  | 'askRequestStatus'
  /** Asks what waits for their decision as an approver ("anything waiting for my approval?"). */
  | 'askMyApprovals'
  /** Wants to withdraw one of their requests ("drop my request for Atlas"), named or not. */
  | 'withdrawRequest'
  /** Asks which of their teams expire or are inactive soon. */
  | 'askExpiringTeams'
  /** Asks which templates suit a purpose ("which template for a client project?"). */
  | 'askTemplates'
  /** Asks what Steward can do. */
  | 'askCapabilities'
  | 'greeting'
  | 'thanks'
  | 'none';

/** A template offered to the person (after audience targeting), as the engine reads it. */
export interface TemplateChoice {
  id: string;
  name: string;
  description: string;
}

/** A template of the catalog whose audience leaves the person out, and who it is for. */
export interface UnavailableChoice extends TemplateChoice {
  /** Who the template is for, in the catalog's plain words; null when unsaid. */
  audience: string | null;
}

/** The template a message asks for that the person may not use, the words it was named by, and who it is for. */
export interface NotOffered extends UnavailableChoice {
  because: string;
}

/** A template the message points at, and the words of the message that point at it. */
export interface TemplateMatch {
  id: string;
  /** The words as the person wrote them ("project", "dossier juridique"): shown on the card's "because". */
  because: string;
  /** 0..1, higher is surer. */
  score: number;
}

/** A person named in the message, before the directory is asked who they are. */
export interface PersonMention {
  /** The name as written, quotes and trailing punctuation removed ("Adele", "megan.bowen@contoso.com"). */
  text: string;
  role: 'owner' | 'member';
}

export interface Understanding {
  language: UnderstoodLanguage;
  intent: Intent;
  /** 0..1: how sure the engine is of the intent. */
  confidence: number;
  /** Templates the message points at, best first (a request's purpose, or the template asked about). */
  templates: TemplateMatch[];
  /** The new team's name when the message gives one ("called Mercury", "for the Contoso deal"). */
  teamName: string | null;
  /** A description drawn from the message (its purpose), or null. */
  description: string | null;
  /** People named as owners or members, in the order written. */
  people: PersonMention[];
  /**
   * For `askRequestStatus`: all requests or only those waiting; null when the question names one
   * request (`requestName`) and for every other intent.
   */
  requestFilter: 'all' | 'waiting' | null;
  /**
   * For `askRequestStatus` and `withdrawRequest`: the team name of one request ("my Northwind
   * request" → "Northwind").
   */
  requestName: string | null;
  /**
   * For `askMyApprovals`: the message tells Steward to decide every request at once ("approve
   * everything pending"), which it never does: each is decided on its own card.
   */
  decideAll?: true;
  /**
   * For `requestTeam`, `askApprovers` and `askTemplates`: the template the message asks for best is
   * one the person may not use (its audience leaves them out); `templates` then holds only theirs.
   */
  notOffered?: NotOffered;
  /**
   * The message has no word of what Steward looks after (the canteen, sport, the wifi): when it is
   * not understood, it is about something else rather than a request misread.
   */
  offTopic?: true;
}

/** A person of the directory, as the bot gets them from `GET /users`. */
export interface DirectoryPerson {
  id: string;
  displayName: string;
  mail: string | null;
}

/** Who a mention may be: one match when sure, several (best first) when ambiguous, none when unknown. */
export interface PersonMatch {
  mention: PersonMention;
  matches: DirectoryPerson[];
  ambiguous: boolean;
}
