import { isConcept } from './templates';
import { withoutElision, type Word } from './text';

/**
 * Whether a message is about what Steward looks after: teams, requests, templates, approvals,
 * owners and members, a team's life. The classifiers always name their nearest intent, and "who
 * won the football last night" is nearest to "who approves…": a message with no word of Steward's
 * domain is not a request, whatever it is nearest to. The words are read as prefixes of folded
 * words (no case, no accents), in English and French, with the kinds of team of the synonym table.
 */

const DOMAIN = // English
  (
    'team request req ticket template kind type option catalog catalogue approv validat sign decid decision ' +
    'owner own member expir inactiv archiv renew channel workspace space group status ready made creat ' +
    'done refus reject declin accept withdraw cancel drop retract scrap pending waiting wait steward ' +
    'provision spin site sharepoint guest join purpose progress stuck news ask stale dormant gabarit ' +
    // French
    'equipe demande modele approb approuv valid decision decid proprio proprietaire membre gestionnaire ' +
    'expir inacti archiv renouvel canal espace groupe statut etat pret fait cree creer creat refus rejet ' +
    'accept retir annul attente attend avanc nouvelles invit rejoindre bloque aide help'
  ).split(' ');

/** Whether one of the words names something of Steward's domain. */
export function aboutSteward(list: readonly Word[]): boolean {
  return list.some((word) => {
    const folded = withoutElision(word.folded);
    if (word.mail || isConcept(folded)) return true;
    return folded.split('-').some((part) => DOMAIN.some((prefix) => part.startsWith(prefix)));
  });
}

/** Words of a question about what Steward can do ("what can you do", "tu peux faire quoi"). */
const ABILITIES =
  /^(?:can|could|do|able|capable|peux|peut|pouvez|faire|fais|sais|savez|commands?|commandes?|who|qui|bot)$/;

/** Whether a message asks what Steward can do, by its words. */
export function asksAbilities(list: readonly Word[]): boolean {
  return list.some((word) => ABILITIES.test(withoutElision(word.folded)));
}

/** A verb of deciding ("approve", "valide", "refuse") and a word for all of them, both in the message. */
const DECIDE = /^(?:approv\w*|approuv\w*|valid\w*|reject\w*|refus\w*|accept\w*|accord\w*|ok)$/;
const ALL = /^(?:all|everything|every|everyone|tout|toutes|tous|them)$/;

/** Whether a message tells Steward to decide every waiting request at once ("approve everything pending"). */
export function decidesAll(list: readonly Word[]): boolean {
  const folded = list.map((word) => withoutElision(word.folded));
  return folded.some((word) => DECIDE.test(word)) && folded.some((word) => ALL.test(word));
}
