/**
 * Parsing half of the rule language: jsep turns source into its AST, then `parseRule` checks that
 * AST against the allow-list and lowers it to `RuleNode`s, so every refusal that can be decided
 * from the source alone is a `RuleSyntaxError` at save time rather than a surprise per request.
 */
import jsepArrow, { type ArrowExpression } from '@jsep-plugin/arrow';
import jsepRegex from '@jsep-plugin/regex';
import jsep, { type Expression } from 'jsep';
import { RuleRegex } from './regex';
import { indexOutsideQuotes } from './scan';

export type { Expression } from 'jsep';

// jsep keeps operators and hooks on one process-wide class; register() skips plugins it already
// knows by name, so importing this module any number of times configures jsep exactly once.
jsep.plugins.register(jsepArrow, jsepRegex);

/** Bounds on the cost of one rule: source size, evaluation steps (regex scans included), produced strings, regex inputs. */
export const RULE_LIMITS = Object.freeze({
  maxSourceLength: 2_000,
  maxSteps: 10_000,
  maxStringLength: 10_000,
  maxRegexInputLength: 1_024,
});

/** A rule or convention that cannot be accepted; `position` is a 0-based index into its source. */
export class RuleSyntaxError extends Error {
  override readonly name = 'RuleSyntaxError';
  constructor(
    readonly reason: string,
    readonly position: number,
  ) {
    super(`${reason} (at character ${position})`);
  }
}

/** Names never resolved as identifiers nor read as properties, whatever the data holds. */
export const FORBIDDEN_NAMES: ReadonlySet<string> = new Set(
  (
    'constructor __proto__ prototype __defineGetter__ __defineSetter__ __lookupGetter__ __lookupSetter__ ' +
    'globalThis global window self process require module exports import arguments Function eval'
  ).split(' '),
);

const METHOD_ARITY = {
  includes: [1, 2],
  startsWith: [1, 2],
  endsWith: [1, 2],
  toLowerCase: [0, 0],
  toUpperCase: [0, 0],
  trim: [0, 0],
  replace: [2, 2],
  match: [1, 1],
  test: [1, 1],
} as const;

export type MethodName = keyof typeof METHOD_ARITY;
type Comparison = '===' | '!==' | '==' | '!=' | '<' | '<=' | '>' | '>=';
export type BinaryOperator = Comparison | '+' | '-' | '*' | '/' | '%';
export type LogicalOperator = '&&' | '||' | '??';

const BINARY_OPERATORS: ReadonlySet<string> = new Set('=== !== == != < <= > >= + - * / %'.split(' '));
const LOGICAL_OPERATORS: ReadonlySet<string> = new Set(['&&', '||', '??']);

type Node<Kind extends string, Fields = unknown> = { readonly kind: Kind } & Readonly<Fields>;

/** The validated tree the evaluator walks; it holds nothing the allow-list did not admit. */
export type RuleNode =
  | Node<'literal', { value: string | number | boolean | RuleRegex | null | undefined }>
  | Node<'scope', { name: string }>
  | Node<'local', { slot: number }>
  | Node<'member', { object: RuleNode; key: string | number }>
  | Node<'computed', { object: RuleNode; key: RuleNode }>
  | Node<'not' | 'negate', { argument: RuleNode }>
  | Node<'binary', { operator: BinaryOperator; left: RuleNode; right: RuleNode }>
  | Node<'logical', { operator: LogicalOperator; left: RuleNode; right: RuleNode }>
  | Node<'conditional', { test: RuleNode; consequent: RuleNode; alternate: RuleNode }>
  | Node<'array', { elements: readonly RuleNode[] }>
  | Node<'call', { method: MethodName; receiver: RuleNode; args: readonly RuleNode[] }>
  | Node<'iterate', { method: 'some' | 'every'; receiver: RuleNode; slot: number; body: RuleNode }>
  | Node<'now'>;

/** A parsed rule: its tree and how many arrow-parameter slots evaluating it needs. */
export interface RuleProgram {
  readonly root: RuleNode;
  readonly slots: number;
}

/** Parses `source` with the configured jsep; throws RuleSyntaxError with jsep's position. */
export function parseExpression(source: string): Expression {
  const max = RULE_LIMITS.maxSourceLength;
  if (source.length > max) throw new RuleSyntaxError(`Expression is longer than ${max} characters`, max);
  let expression: Expression;
  try {
    expression = jsep(source);
  } catch (error) {
    const { index, description } = error as { index?: unknown; description?: unknown };
    if (typeof index === 'number' && typeof description === 'string') {
      throw new RuleSyntaxError(description, index);
    }
    // Not a jsep diagnostic (e.g. a stack overflow on absurd nesting): still the author's input.
    throw new RuleSyntaxError('Expression could not be parsed', 0);
  }
  if (expression.type === 'Compound' && (expression.body as Expression[]).length === 0) {
    throw new RuleSyntaxError('Expression is empty', 0);
  }
  return expression;
}

/** Parses and validates a rule, lowering it to the tree `evaluate.ts` walks. */
export function parseRule(source: string): RuleProgram {
  const lowering = new Lowering(source);
  const root = lowering.lower(parseExpression(source));
  return { root, slots: lowering.slots };
}

class Lowering {
  slots = 0;
  private readonly params: string[] = [];

  constructor(private readonly source: string) {}

  lower(node: Expression): RuleNode {
    switch (node.type) {
      case 'Literal':
        return this.literal(node as jsep.Literal);
      case 'Identifier':
        return this.identifier((node as jsep.Identifier).name);
      case 'MemberExpression':
        return this.member(node as jsep.MemberExpression);
      case 'CallExpression':
        return this.call(node as jsep.CallExpression);
      case 'UnaryExpression': {
        const { operator, argument } = node as jsep.UnaryExpression;
        if (operator === '!') return { kind: 'not', argument: this.lower(argument) };
        if (operator === '-') return { kind: 'negate', argument: this.lower(argument) };
        return this.fail(`Operator "${operator}" is not allowed`, this.find(operator));
      }
      case 'BinaryExpression': {
        const { operator, left, right } = node as jsep.BinaryExpression;
        if (BINARY_OPERATORS.has(operator)) {
          const op = operator as BinaryOperator;
          return { kind: 'binary', operator: op, left: this.lower(left), right: this.lower(right) };
        }
        if (LOGICAL_OPERATORS.has(operator)) {
          const op = operator as LogicalOperator;
          return { kind: 'logical', operator: op, left: this.lower(left), right: this.lower(right) };
        }
        return this.fail(`Operator "${operator}" is not allowed`, this.find(operator));
      }
      case 'ConditionalExpression': {
        const { test, consequent, alternate } = node as jsep.ConditionalExpression;
        return {
          kind: 'conditional',
          test: this.lower(test),
          consequent: this.lower(consequent),
          alternate: this.lower(alternate),
        };
      }
      case 'ArrayExpression': {
        const elements = (node as jsep.ArrayExpression).elements.map((element) =>
          element === null ? this.fail('Array holes are not allowed', this.find(',')) : this.lower(element),
        );
        return { kind: 'array', elements };
      }
      case 'ThisExpression':
        return this.fail('"this" is not allowed', this.find('this'));
      case 'ArrowFunctionExpression':
        return this.fail('Arrow functions are only allowed as the argument of some() or every()', 0);
      case 'Compound':
      case 'SequenceExpression':
        return this.fail('Only one expression is allowed (no ";", "," or keywords such as new)', 0);
      default:
        return this.fail(`${node.type} is not allowed`, 0);
    }
  }

  private literal(node: jsep.Literal): RuleNode {
    const value = node.value;
    if (!(value instanceof RegExp))
      return { kind: 'literal', value: value as string | number | boolean | null };
    // jsep's plugin built a native RegExp; it is only read for its source and flags, never run.
    const at = Math.max(0, this.source.indexOf(node.raw));
    if (!/^[gimsu]*$/.test(value.flags)) {
      return this.fail(`Regular expression flags "${value.flags}" are not allowed (use g, i, m, s, u)`, at);
    }
    const regex = RuleRegex.compile(value.source, value.flags);
    if (!(regex instanceof RuleRegex)) return this.fail(regex.reason, at + 1 + regex.index);
    return { kind: 'literal', value: regex };
  }

  private identifier(name: string): RuleNode {
    if (name === 'undefined') return { kind: 'literal', value: undefined };
    if (FORBIDDEN_NAMES.has(name)) return this.fail(`"${name}" is not allowed`, this.find(name));
    const slot = this.params.lastIndexOf(name);
    return slot >= 0 ? { kind: 'local', slot } : { kind: 'scope', name };
  }

  private member(node: jsep.MemberExpression): RuleNode {
    const object = this.lower(node.object);
    const property = node.property;
    if (!node.computed) return { kind: 'member', object, key: this.propertyName(property) };
    if (property.type === 'Literal') {
      const { value, raw } = property as jsep.Literal;
      if (typeof value === 'number') return { kind: 'member', object, key: value };
      if (typeof value === 'string') {
        if (!FORBIDDEN_NAMES.has(value)) return { kind: 'member', object, key: value };
        return this.fail(`Property "${value}" is not allowed`, this.find(raw));
      }
    }
    return { kind: 'computed', object, key: this.lower(property) };
  }

  private propertyName(property: Expression): string {
    const name = property.type === 'Identifier' ? (property as jsep.Identifier).name : '';
    if (FORBIDDEN_NAMES.has(name)) this.fail(`Property "${name}" is not allowed`, this.find(`.${name}`) + 1);
    return name;
  }

  private call(node: jsep.CallExpression): RuleNode {
    const callee = node.callee;
    const args = node.arguments;
    if (callee.type !== 'MemberExpression' || (callee as jsep.MemberExpression).computed) {
      const name = callee.type === 'Identifier' ? (callee as jsep.Identifier).name : '(';
      return this.fail('Only allow-listed methods can be called', this.find(name));
    }
    const { object, property } = callee as jsep.MemberExpression;
    const method = this.propertyName(property);
    const at = this.find(`.${method}`) + 1;
    if (object.type === 'Identifier' && (object as jsep.Identifier).name === 'Date' && method === 'now') {
      return args.length === 0 ? { kind: 'now' } : this.fail('Date.now() takes no arguments', at);
    }
    const receiver = this.lower(object);
    if (method === 'some' || method === 'every') return this.iterate(method, receiver, args, at);
    if (!Object.hasOwn(METHOD_ARITY, method)) return this.fail(`Method "${method}" is not allowed`, at);
    const [min, max] = METHOD_ARITY[method as MethodName];
    if (args.length < min || args.length > max) {
      return this.fail(`${method}() takes ${min === max ? min : `${min} to ${max}`} argument(s)`, at);
    }
    return { kind: 'call', method: method as MethodName, receiver, args: args.map((arg) => this.lower(arg)) };
  }

  private iterate(method: 'some' | 'every', receiver: RuleNode, args: Expression[], at: number): RuleNode {
    const arrow = args[0] as ArrowExpression | undefined;
    const param = arrow?.params?.[0];
    if (args.length !== 1 || arrow?.type !== 'ArrowFunctionExpression' || arrow.params?.length !== 1) {
      return this.fail(`${method}() takes one arrow function with one parameter`, at);
    }
    if (param?.type !== 'Identifier') return this.fail('Arrow parameters must be plain names', at);
    const name = (param as jsep.Identifier).name;
    if (FORBIDDEN_NAMES.has(name) || name === 'undefined') return this.fail(`"${name}" is not allowed`, at);
    const slot = this.params.length;
    this.params.push(name);
    this.slots = Math.max(this.slots, this.params.length);
    const body = this.lower(arrow.body);
    this.params.pop();
    return { kind: 'iterate', method, receiver, slot, body };
  }

  /** jsep nodes carry no offsets, so semantic errors point at the first matching token outside quotes. */
  private find(token: string): number {
    const found = indexOutsideQuotes(this.source, token);
    return found >= 0 ? found : Math.max(0, this.source.indexOf(token));
  }

  private fail(reason: string, position: number): never {
    throw new RuleSyntaxError(reason, position);
  }
}
