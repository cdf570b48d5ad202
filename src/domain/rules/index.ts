/**
 * The rule language of audience targeting and naming conventions: JavaScript-style expressions
 * parsed by jsep and evaluated by our own allow-listing walker (never eval, Function or vm). Regex
 * literals run on RE2JS (linear time; see `regex.ts`), never on the backtracking native engine.
 *
 * Semantics worth knowing: a missing attribute (or a method of one) is `undefined`, never an error;
 * `==`/`!=` are JavaScript loose equality between primitives and identity otherwise; `replace()`
 * inserts its replacement literally (a `$` pattern is refused); a regex meeting a string longer than
 * `RULE_LIMITS.maxRegexInputLength` throws rather than answering false, so the template is hidden
 * and logged instead of silently mis-targeted. Scope values are trusted data (plain objects, arrays,
 * primitives): only their own properties are read, and function-valued ones read as `undefined`.
 *
 * @example
 * const rule = compileRule("user.country === 'FR'");
 * rule.matches({ user: { country: 'FR' } }); // true
 * compileConvention('PRJ-<%= request.team.name %>').render({ request: { team: { name: 'Apollo' } } }); // 'PRJ-Apollo'
 */
export { type CompiledConvention, compileConvention } from './convention';
export { type CompiledRule, compileRule, RuleEvaluationError } from './evaluate';
export { RULE_LIMITS, RuleSyntaxError } from './parse';
