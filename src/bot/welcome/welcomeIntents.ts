import { cardReply } from '../conversations/reply';
import { say } from '../i18n/catalog';
import type { FeatureIntents } from '../understanding/answerParts';
import { renderCapabilitiesCard } from './capabilitiesCard';
import { helpReply } from '../shared/help';
import { renderWelcomeCard } from './welcomeCard';

/** The intents of the welcome: what Steward can do, greetings, thanks, and what it did not understand. */
export const welcomeIntents = {
  askCapabilities: { answer: ({ reader }) => cardReply(renderCapabilitiesCard(reader)) },
  greeting: {
    answer: ({ context, reader }) =>
      cardReply(renderWelcomeCard({ userName: context.activity.from?.name ?? null }, reader)),
  },
  thanks: { answer: ({ reader }) => ({ kind: 'text', text: say(reader, 'talk.thanks') }) },
  none: { answer: ({ reader }) => helpReply(reader) },
} satisfies FeatureIntents;
