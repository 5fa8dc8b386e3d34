/** Kubernetes label selectors (`matchLabels` and `matchExpressions`), matched as the API server matches them. */

/** A label selector as Kubernetes objects carry it. */
export interface LabelSelector {
  readonly matchLabels?: Readonly<Record<string, string>>;
  readonly matchExpressions?: readonly { readonly key: string; readonly operator: string; readonly values?: readonly string[] }[];
}

/** Whether one expression holds for `labels`; an operator Kubernetes does not define is an error, not a guess. */
function expressionHolds(expression: NonNullable<LabelSelector['matchExpressions']>[number], labels: Readonly<Record<string, string>>): boolean {
  const has = Object.hasOwn(labels, expression.key);
  const value = labels[expression.key];
  const values = expression.values ?? [];
  switch (expression.operator) {
    case 'In':
      return has && values.includes(value ?? '');
    case 'NotIn':
      return !has || !values.includes(value ?? '');
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    default:
      throw new Error(`unknown label selector operator ${expression.operator} (In, NotIn, Exists or DoesNotExist)`);
  }
}

/** Whether `labels` match `selector`: every label and every expression must hold; the empty selector matches all. */
export function matchesSelector(selector: LabelSelector, labels: Readonly<Record<string, string>> | undefined): boolean {
  const own = labels ?? {};
  const byLabel = Object.entries(selector.matchLabels ?? {}).every(([key, value]) => own[key] === value);
  return byLabel && (selector.matchExpressions ?? []).every((e) => expressionHolds(e, own));
}
