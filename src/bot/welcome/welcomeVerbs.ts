import { anyData, cardData, textOrEmpty } from '../cards/cardData';
import { CardVerb } from '../cards/cardVerbs';
import { readerOfTurn } from '../conversations/reply';
import { OWN_SETTINGS } from '../verbAccess';
import { type FeatureVerbs, verb } from '../verbTypes';
import { helpReply } from '../shared/help';
import { chooseLanguage } from './language';

/** Data of `chooseLanguage`: `en`, `fr`, or `auto` (the Teams client's language). */
export const chooseLanguageData = cardData({ language: textOrEmpty });

/** The verbs of the welcome: help, and the person's language. */
export const welcomeVerbs = {
  [CardVerb.help]: verb({
    data: anyData,
    access: OWN_SETTINGS,
    failure: { subject: 'requests', doing: 'showHelp' },
    asBot: ({ context }) => helpReply(readerOfTurn(context)),
  }),
  [CardVerb.chooseLanguage]: verb({
    data: chooseLanguageData,
    access: OWN_SETTINGS,
    failure: { subject: 'requests', doing: 'chooseLanguage' },
    asBot: ({ context, data, deps }) => chooseLanguage(context, deps, data.language),
  }),
} satisfies FeatureVerbs;
