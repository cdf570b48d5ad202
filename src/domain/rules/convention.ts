/**
 * Naming conventions: literal text with `<%= expression %>` holes, each hole a rule expression
 * evaluated by the same safe evaluator. Only `<%=` opens a hole; everything else is literal.
 */
import { evaluateProgram, RuleEvaluationError, startEvaluation } from './evaluate';
import { parseRule, RULE_LIMITS, type RuleProgram, RuleSyntaxError } from './parse';
import { indexOutsideQuotes } from './scan';

/** A template parsed once, rendered against many scopes. */
export interface CompiledConvention {
  readonly source: string;
  render(scope: Record<string, unknown>): string;
}

const OPEN = '<%=';
const CLOSE = '%>';

/** Parses `template` (throws RuleSyntaxError, positions relative to the whole template). */
export function compileConvention(template: string): CompiledConvention {
  const max = RULE_LIMITS.maxStringLength;
  if (template.length > max) throw new RuleSyntaxError(`Template is longer than ${max} characters`, max);
  const parts: (string | RuleProgram)[] = [];
  let slots = 0;
  let cursor = 0;
  while (cursor < template.length) {
    const open = template.indexOf(OPEN, cursor);
    if (open < 0) {
      parts.push(template.slice(cursor));
      break;
    }
    if (open > cursor) parts.push(template.slice(cursor, open));
    const start = open + OPEN.length;
    const close = findClose(template, start);
    if (close < 0) throw new RuleSyntaxError(`Unterminated "${OPEN}" (missing "${CLOSE}")`, open);
    const program = parseHole(template.slice(start, close), start);
    slots = Math.max(slots, program.slots);
    parts.push(program);
    cursor = close + CLOSE.length;
  }
  return Object.freeze({
    source: template,
    render: (scope: Record<string, unknown>) => render(parts, slots, scope),
  });
}

function render(
  parts: readonly (string | RuleProgram)[],
  slots: number,
  scope: Record<string, unknown>,
): string {
  // One state for the whole template: the step budget covers all its holes together.
  const state = startEvaluation(scope, slots);
  let output = '';
  for (const part of parts) {
    output += typeof part === 'string' ? part : display(evaluateProgram(part, state));
    if (output.length > RULE_LIMITS.maxStringLength) {
      throw new RuleEvaluationError(`Rendered text is longer than ${RULE_LIMITS.maxStringLength} characters`);
    }
  }
  return output;
}

function display(value: unknown): string {
  if (value === undefined || value === null) return '';
  try {
    return String(value);
  } catch (error) {
    throw new RuleEvaluationError('A hole produced a value that cannot be shown as text', { cause: error });
  }
}

function parseHole(expression: string, offset: number): RuleProgram {
  try {
    return parseRule(expression);
  } catch (error) {
    if (error instanceof RuleSyntaxError) throw new RuleSyntaxError(error.reason, offset + error.position);
    throw error;
  }
}

/** Finds the `%>` closing a hole, ignoring one inside a quoted string such as `'50%>'`. */
function findClose(template: string, start: number): number {
  const found = indexOutsideQuotes(template, CLOSE, start);
  // An unbalanced quote (or one inside a regex literal): let the parser report what is wrong.
  return found >= 0 ? found : template.indexOf(CLOSE, start);
}
