import { formatViolation } from '../../api/schema/violation.ts';
import { API_VERSION } from '../../api/v1beta1/kinds.ts';
import { validateObject } from '../../api/v1beta1/validate.ts';
import { throwIfAny, UserError } from '../framework/errors.ts';

/**
 * Refuses rendered objects of this API that its CRDs would refuse, with the API server's messages, before anything
 * is printed or applied. Other kinds (Namespace, Secret) pass through.
 */
export function refuseInvalidRendered(objects: ReadonlyArray<{ apiVersion: string; kind: string }>): void {
  throwIfAny(
    objects
      .filter((o) => o.apiVersion === API_VERSION)
      .flatMap((o) => validateObject(o).violations.map((v) => new UserError(`the rendered ${o.kind} would be refused: ${formatViolation(v)}`))),
  );
}
