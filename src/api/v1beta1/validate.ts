import type { KindDefinition } from '../schema/model.ts';
import { validateAgainstKind, type ObjectValidation, type ValidateObjectOptions } from '../schema/validate-object.ts';
import { showValue } from '../schema/violation.ts';
import { API_VERSION, KINDS } from './kinds.ts';

/** Finds the definition of a kind of this API by name. */
export function kindDefinition(kind: string): KindDefinition | undefined {
  return KINDS.find((k) => k.kind === kind);
}

/**
 * The offline validator: checks a HostedCluster, NodePool or HostedControlPlane with the same schema and CEL rules
 * the CRDs enforce on the API server, without a cluster. Used by `--render` and by tests.
 */
export function validateObject(obj: unknown, options: ValidateObjectOptions = {}): ObjectValidation {
  const kind = typeof obj === 'object' && obj !== null ? (obj as Record<string, unknown>)['kind'] : undefined;
  const def = typeof kind === 'string' ? kindDefinition(kind) : undefined;
  if (def === undefined) {
    const known = KINDS.map((k) => `"${k.kind}"`).join(', ');
    return {
      violations: [{ path: 'kind', message: `must be one of ${known} (${API_VERSION})`, got: showValue(kind) }],
      defaulted: {},
    };
  }
  return validateAgainstKind(def, obj, options);
}
