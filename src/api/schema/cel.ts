import { Environment, type ParseResult } from '@marcbachmann/cel-js';

/** `isURL` as the Kubernetes CEL library defines it: an absolute URL with a scheme. */
function isUrl(value: string): boolean {
  try {
    return new URL(value).protocol.length > 1;
  } catch {
    return false;
  }
}

/**
 * The CEL environment of CRD validation rules: `self` and `oldSelf` as dynamic values, optional types on (for
 * `?.` field selection) and the Kubernetes extension functions the rules of this API use.
 */
const environment = new Environment({
  unlistedVariablesAreDyn: false,
  enableOptionalTypes: true,
  homogeneousAggregateLiterals: false,
})
  .registerVariable('self', 'dyn')
  .registerVariable('oldSelf', 'dyn')
  .registerFunction('isURL(string): bool', isUrl);

const programs = new Map<string, ParseResult>();

/** Compiles a rule once and caches it; throws a ParseError for a rule that is not valid CEL. */
export function compileRule(rule: string): ParseResult {
  let program = programs.get(rule);
  if (program === undefined) {
    program = environment.parse(rule);
    programs.set(rule, program);
  }
  return program;
}

/** Whether a rule is a transition rule, i.e. compares against the stored object. */
export function isTransitionRule(rule: string): boolean {
  return /\boldSelf\b/.test(rule);
}

/** Evaluates a rule; returns true, false, or an Error when the rule cannot be evaluated on this value. */
export function evaluateRule(rule: string, self: unknown, oldSelf?: unknown): boolean | Error {
  try {
    const result: unknown = compileRule(rule)({ self, oldSelf });
    return result === true;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}
