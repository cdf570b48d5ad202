/**
 * The parts of nlp.js (AXA's `@nlpjs/*` packages, plain JavaScript without types) the
 * understanding engine uses: the stemmers of English and French and the intent classifier's
 * neural network. Declared here as the engine calls them, nothing more.
 */

declare module '@nlpjs/lang-en-min' {
  export class StemmerEn {
    stemWord(word: string): string;
  }
}

declare module '@nlpjs/lang-fr' {
  export class StemmerFr {
    stemWord(word: string): string;
  }
}

declare module '@nlpjs/neural' {
  /** One training example: the features present (value 1) and the intent expected (value 1). */
  export interface NeuralExample {
    input: Record<string, number>;
    output: Record<string, number>;
  }
  export interface NeuralSettings {
    iterations?: number;
    errorThresh?: number;
    deltaErrorThresh?: number;
    learningRate?: number;
    momentum?: number;
    alpha?: number;
    log?: boolean;
  }
  export class NeuralNetwork {
    constructor(settings?: NeuralSettings);
    /** Trains synchronously on the examples; returns the last epoch's status. */
    train(corpus: NeuralExample[]): { error: number; iterations: number };
    /** Each intent's activation for the features given (unknown features are ignored). */
    run(input: Record<string, number>): Record<string, number> | undefined;
    toJSON(): unknown;
    fromJSON(json: unknown): void;
  }
}
