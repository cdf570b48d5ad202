import { words } from '../../../src/bot/understanding/text';

const folded = (text: string) => words(text).map((word) => word.folded);

describe('the intent classifier', () => {
  test('is trained per language on the first message that needs it, and once', async () => {
    // A registry of its own: the classifier module loads afresh, with nlp.js's network watched.
    await jest.isolateModulesAsync(async () => {
      const { NeuralNetwork } = await import('@nlpjs/neural');
      const train = jest.spyOn(NeuralNetwork.prototype, 'train');
      const { classify } = await import('../../../src/bot/understanding/intents');
      // Loading the engine trains nothing: a process that reads no typed message never pays for it.
      expect(train).not.toHaveBeenCalled();
      expect(classify(folded('I need a new team for the Atlas project'), 'en').intent).toBe('requestTeam');
      expect(train).toHaveBeenCalledTimes(1);
      classify(folded('what can you do'), 'en');
      expect(train).toHaveBeenCalledTimes(1);
      expect(classify(folded('je voudrais une équipe pour le projet Atlas'), 'fr').intent).toBe(
        'requestTeam',
      );
      expect(train).toHaveBeenCalledTimes(2);
    });
  });
});
