/**
 * Regular expressions of the rule language run on RE2JS, a linear-time engine with RE2 semantics:
 * no backtracking, so no pattern can take time exponential (or polynomial of high degree) in its
 * input. What RE2 cannot run (backreferences, lookaround) is refused when the rule is saved, with
 * the position in the pattern. The cost of a match is still proportional to input length × program
 * size, so every run is charged to the evaluation's budget before it starts.
 */
import { RE2JS } from 're2js';

/** Bounds on one pattern; `unitsPerStep` converts "characters × program size" into rule steps. */
export const REGEX_LIMITS = Object.freeze({
  /** RE2's own "program size" of a compiled pattern: `a{100}` is about 100, `(a|b)*` about 6. */
  maxProgramSize: 500,
  /** With 10 000 steps per evaluation, one evaluation scans at most 200 000 character × instruction. */
  unitsPerStep: 20,
});

/** Why a pattern was refused and where, as a 0-based index into the pattern's source. */
export interface PatternRefusal {
  readonly reason: string;
  readonly index: number;
}

/** Charges `units` (characters scanned × program size) and throws when the budget is spent. */
export type RegexCharge = (units: number) => void;

/** A regex literal of a rule, compiled once for RE2; only the three uses the language allows. */
export class RuleRegex {
  readonly global: boolean;

  private constructor(
    readonly source: string,
    readonly flags: string,
    private readonly engine: RE2JS,
  ) {
    this.global = flags.includes('g');
  }

  /** Compiles a JavaScript regex literal's source and flags, or says why RE2 cannot run it. */
  static compile(source: string, flags: string): RuleRegex | PatternRefusal {
    const refusal = unsupportedSyntax(source);
    if (refusal) return refusal;
    let engine: RE2JS;
    try {
      engine = RE2JS.compile(RE2JS.translateRegExp(source), engineFlags(flags));
    } catch (error) {
      const { input, message } = error as { input?: unknown; message?: unknown };
      const at = typeof input === 'string' && input ? source.indexOf(input) : -1;
      const reason = typeof message === 'string' ? message.replace(/^error parsing regexp: /, '') : '';
      return {
        reason: `Regular expression not supported: ${reason || 'invalid syntax'}`,
        index: Math.max(0, at),
      };
    }
    if (engine.programSize() > REGEX_LIMITS.maxProgramSize) {
      return {
        reason: `Regular expression is too large (RE2 program size ${engine.programSize()}, at most ${REGEX_LIMITS.maxProgramSize})`,
        index: 0,
      };
    }
    return new RuleRegex(source, flags, engine);
  }

  /** `regex.test(input)`: whether the pattern occurs anywhere in `input`. */
  test(input: string, charge: RegexCharge): boolean {
    charge(this.cost(input.length));
    return this.engine.test(input);
  }

  /** `input.match(regex)`: the first match with its groups, or every match's text with `g`. */
  match(input: string, charge: RegexCharge): string[] | null {
    if (!this.global) {
      charge(this.cost(input.length));
      return this.engine.exec(input);
    }
    const found = [...this.each(input, charge)].map((match) => match[0] as string);
    return found.length > 0 ? found : null;
  }

  /** `input.replace(regex, text)`: the first match (every match with `g`) replaced by `insert`. */
  replace(input: string, insert: (found: string) => string, charge: RegexCharge): string {
    let output = '';
    let cursor = 0;
    for (const match of this.global ? this.each(input, charge) : this.first(input, charge)) {
      const start = match.index ?? 0;
      output += input.slice(cursor, start) + insert(match[0] as string);
      cursor = start + (match[0] as string).length;
    }
    return output + input.slice(cursor);
  }

  toString(): string {
    return `/${this.source}/${this.flags}`;
  }

  private *first(input: string, charge: RegexCharge): Generator<RegExpMatchArray> {
    charge(this.cost(input.length));
    const match = this.engine.exec(input);
    if (match) yield match as RegExpMatchArray;
  }

  /** Each search scans at most the rest of the input, so each is charged for the rest first. */
  private *each(input: string, charge: RegexCharge): Generator<RegExpMatchArray> {
    const matches = this.engine.matchAll(input);
    let scannedFrom = 0;
    for (;;) {
      charge(this.cost(input.length - scannedFrom));
      const next = matches.next();
      if (next.done) return;
      const match = next.value;
      scannedFrom = (match.index ?? 0) + Math.max(1, (match[0] as string).length);
      yield match;
    }
  }

  private cost(characters: number): number {
    return (characters + 1) * this.engine.programSize();
  }
}

function engineFlags(flags: string): number {
  let value = 0;
  if (flags.includes('i')) value |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes('m')) value |= RE2JS.MULTILINE;
  if (flags.includes('s')) value |= RE2JS.DOTALL;
  return value;
}

const LOOKAROUND = /^\(\?(?:=|!|<=|<!)/;

/**
 * Finds the constructs RE2 refuses by design, to name them plainly: RE2JS's own message for a
 * lookbehind is "invalid named capture", and it would quietly accept `\k<name>`.
 */
function unsupportedSyntax(pattern: string): PatternRefusal | undefined {
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === '\\') {
      const next = pattern[i + 1] ?? '';
      if (/[1-9]/.test(next) || (next === 'k' && pattern[i + 2] === '<')) {
        return { reason: 'Backreferences are not supported (rules run on a linear-time engine)', index: i };
      }
      i++;
    } else if (char === '[') {
      for (i++; i < pattern.length && pattern[i] !== ']'; i++) if (pattern[i] === '\\') i++;
    } else if (char === '(' && LOOKAROUND.test(pattern.slice(i, i + 4))) {
      return {
        reason: 'Lookahead and lookbehind are not supported (rules run on a linear-time engine)',
        index: i,
      };
    }
  }
  return undefined;
}
