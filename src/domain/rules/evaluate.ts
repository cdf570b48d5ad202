/**
 * Evaluating half of the rule language: a walker over the `RuleNode`s produced by `parseRule`.
 * Nothing here reads a function off a value or runs generated code: methods are dispatched by our
 * own switch on the receiver's type, and every node visit is charged against a step budget.
 */
import {
  type BinaryOperator,
  FORBIDDEN_NAMES,
  type MethodName,
  parseRule,
  RULE_LIMITS,
  type RuleNode,
  type RuleProgram,
} from './parse';
import { dataValue, readOwn, readProperty } from './access';
import { REGEX_LIMITS, RuleRegex } from './regex';

/** A rule broke a limit or reached for something the allow-list refuses while being evaluated. */
export class RuleEvaluationError extends Error {
  override readonly name = 'RuleEvaluationError';
}

/** A rule parsed once, evaluated against many scopes. */
export interface CompiledRule {
  readonly source: string;
  evaluate(scope: Record<string, unknown>): unknown;
  /** True only when the rule evaluates to exactly `true`. */
  matches(scope: Record<string, unknown>): boolean;
}

/** Per-evaluation state: one small object, shared by all holes of a convention. */
export interface EvaluationState {
  readonly scope: Record<string, unknown>;
  readonly locals: unknown[];
  steps: number;
}

const NO_LOCALS: unknown[] = [];

/** Parses and validates `source` (throws RuleSyntaxError) into a reusable rule. */
export function compileRule(source: string): CompiledRule {
  const program = parseRule(source);
  const evaluate = (scope: Record<string, unknown>): unknown =>
    evaluateProgram(program, startEvaluation(scope, program.slots));
  return Object.freeze({
    source,
    evaluate,
    matches: (scope: Record<string, unknown>) => evaluate(scope) === true,
  });
}

/** Fresh state for one evaluation; `slots` is the deepest arrow nesting it will meet. */
export function startEvaluation(scope: Record<string, unknown>, slots: number): EvaluationState {
  return { scope, locals: slots === 0 ? NO_LOCALS : new Array<unknown>(slots), steps: 0 };
}

/** Evaluates a program; anything that goes wrong surfaces as RuleEvaluationError. */
export function evaluateProgram(program: RuleProgram, state: EvaluationState): unknown {
  try {
    return walk(program.root, state);
  } catch (error) {
    if (error instanceof RuleEvaluationError) throw error;
    // A TypeError or RangeError here is the rule's fault, and callers handle exactly one error type.
    const message = error instanceof Error ? error.message : String(error);
    throw new RuleEvaluationError(`Rule failed: ${message}`, { cause: error });
  }
}

function walk(node: RuleNode, state: EvaluationState): unknown {
  charge(state, 1);
  switch (node.kind) {
    case 'literal':
      return node.value;
    case 'scope':
      return readOwn(state.scope, node.name);
    case 'local':
      return state.locals[node.slot];
    case 'member':
      return readProperty(walk(node.object, state), node.key);
    case 'computed': {
      const target = walk(node.object, state);
      const key = walk(node.key, state);
      if (typeof key === 'string' && FORBIDDEN_NAMES.has(key)) {
        throw new RuleEvaluationError(`Property "${key}" is not allowed`);
      }
      return typeof key === 'string' || typeof key === 'number' ? readProperty(target, key) : undefined;
    }
    case 'not':
      return !walk(node.argument, state);
    case 'negate':
      return -(primitive(walk(node.argument, state), '-') as number);
    case 'logical': {
      const left = walk(node.left, state);
      if (node.operator === '&&') return left ? walk(node.right, state) : left;
      if (node.operator === '||') return left ? left : walk(node.right, state);
      return left ?? walk(node.right, state);
    }
    case 'binary':
      return binary(node.operator, walk(node.left, state), walk(node.right, state));
    case 'conditional':
      return walk(node.test, state) ? walk(node.consequent, state) : walk(node.alternate, state);
    case 'array': {
      const values = new Array<unknown>(node.elements.length);
      for (let i = 0; i < node.elements.length; i++) values[i] = walk(node.elements[i] as RuleNode, state);
      return values;
    }
    case 'call': {
      const receiver = walk(node.receiver, state);
      // Like member access, a method of a missing attribute is missing too.
      if (receiver === undefined || receiver === null) return undefined;
      const first = node.args[0];
      const second = node.args[1];
      const a = first === undefined ? undefined : walk(first, state);
      const b = second === undefined ? undefined : walk(second, state);
      return callMethod(node.method, receiver, a, b, state);
    }
    case 'iterate': {
      const receiver = walk(node.receiver, state);
      if (receiver === undefined || receiver === null) return undefined;
      if (!Array.isArray(receiver)) throw unavailable(node.method, receiver);
      const list: readonly unknown[] = receiver;
      const every = node.method === 'every';
      for (let i = 0, length = list.length; i < length; i++) {
        state.locals[node.slot] = dataValue(list[i]);
        if (Boolean(walk(node.body, state)) !== every) return !every;
      }
      return every;
    }
    case 'now':
      return Date.now();
  }
}

function charge(state: EvaluationState, steps: number): void {
  state.steps += steps;
  if (state.steps > RULE_LIMITS.maxSteps) {
    throw new RuleEvaluationError(`Rule exceeded its budget of ${RULE_LIMITS.maxSteps} steps`);
  }
}

function binary(operator: BinaryOperator, left: unknown, right: unknown): unknown {
  switch (operator) {
    case '===':
      return left === right;
    case '!==':
      return left !== right;
    case '==':
      return looseEquals(left, right);
    case '!=':
      return !looseEquals(left, right);
  }
  const l = primitive(left, operator) as number;
  const r = primitive(right, operator) as number;
  switch (operator) {
    case '<':
      return l < r;
    case '<=':
      return l <= r;
    case '>':
      return l > r;
    case '>=':
      return l >= r;
    case '+':
      return typeof l === 'string' || typeof r === 'string' ? capped(String(l) + String(r)) : l + r;
    case '-':
      return l - r;
    case '*':
      return l * r;
    case '/':
      return l / r;
    case '%':
      return l % r;
  }
}

/** JavaScript `==` between primitives (it runs no user code there); objects compare by identity. */
function looseEquals(left: unknown, right: unknown): boolean {
  if (isPrimitive(left) && isPrimitive(right)) {
    // Loose equality on primitives is the documented meaning of == in rules.
    // eslint-disable-next-line eqeqeq
    return left == right;
  }
  return left === right;
}

function callMethod(
  method: MethodName,
  receiver: unknown,
  a: unknown,
  b: unknown,
  state: EvaluationState,
): unknown {
  if (typeof receiver === 'string') {
    switch (method) {
      case 'includes':
        return receiver.includes(text(a, method), position(b, method));
      case 'startsWith':
        return receiver.startsWith(text(a, method), position(b, method));
      case 'endsWith':
        return receiver.endsWith(text(a, method), position(b, method));
      case 'toLowerCase':
        return capped(receiver.toLowerCase());
      case 'toUpperCase':
        return capped(receiver.toUpperCase());
      case 'trim':
        return receiver.trim();
      case 'replace':
        return replace(receiver, a, text(b, method), state);
      case 'match': {
        if (a instanceof RuleRegex) return a.match(checkedInput(receiver), regexCharge(state));
        throw new RuleEvaluationError('match() takes a regular expression literal');
      }
    }
  } else if (Array.isArray(receiver)) {
    if (method === 'includes') {
      // Native includes scans the whole array: charge the scan before doing it.
      charge(state, receiver.length);
      return receiver.includes(a, position(b, method));
    }
  } else if (receiver instanceof RuleRegex && method === 'test') {
    return typeof a === 'string' ? receiver.test(checkedInput(a), regexCharge(state)) : false;
  }
  throw unavailable(method, receiver);
}

/** replace() inserts its replacement literally, and stops as soon as the output passes the cap. */
function replace(input: string, pattern: unknown, replacement: string, state: EvaluationState): string {
  if (/\$[$&`'<\d]/.test(replacement)) {
    throw new RuleEvaluationError('replace() does not support $ patterns in the replacement');
  }
  let growth = 0;
  const insert = (found: string): string => {
    growth += replacement.length - found.length;
    if (input.length + growth > RULE_LIMITS.maxStringLength) throw tooLong();
    return replacement;
  };
  if (pattern instanceof RuleRegex) return pattern.replace(checkedInput(input), insert, regexCharge(state));
  return input.replace(text(pattern, 'replace'), insert);
}

/** A regex scan costs (characters scanned × program size) / unitsPerStep steps of the same budget. */
function regexCharge(state: EvaluationState): (units: number) => void {
  return (units) => charge(state, Math.ceil(units / REGEX_LIMITS.unitsPerStep));
}

function checkedInput(input: string): string {
  if (input.length > RULE_LIMITS.maxRegexInputLength) {
    throw new RuleEvaluationError(
      `Regular expressions only run on strings up to ${RULE_LIMITS.maxRegexInputLength} characters`,
    );
  }
  return input;
}

function isPrimitive(value: unknown): boolean {
  return value === null || (typeof value !== 'object' && typeof value !== 'function');
}

function primitive(value: unknown, operator: string): unknown {
  if (!isPrimitive(value)) throw new RuleEvaluationError(`Operator "${operator}" needs primitive operands`);
  return value;
}

function text(value: unknown, method: string): string {
  if (!isPrimitive(value)) throw new RuleEvaluationError(`${method}() takes a string argument`);
  return String(value);
}

function position(value: unknown, method: string): number | undefined {
  return value === undefined ? undefined : Number(primitive(value, `${method}()`));
}

function capped(value: string): string {
  if (value.length > RULE_LIMITS.maxStringLength) throw tooLong();
  return value;
}

function tooLong(): RuleEvaluationError {
  return new RuleEvaluationError(
    `Rule produced a string longer than ${RULE_LIMITS.maxStringLength} characters`,
  );
}

function unavailable(method: string, receiver: unknown): RuleEvaluationError {
  const kind = Array.isArray(receiver)
    ? 'an array'
    : receiver instanceof RuleRegex
      ? 'a regex'
      : typeof receiver;
  return new RuleEvaluationError(`${method}() is not available on ${kind}`);
}
