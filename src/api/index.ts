/**
 * The public API package: the hypershift.openshift.io/v1beta1 types, their CRDs, defaults and offline validation,
 * and the condition catalogue.
 */
export type { ObjectMeta, OwnerReference } from './meta.ts';
export type * from './v1beta1/zz_generated.types.ts';
export { API_VERSION, GROUP, KINDS, VERSION, hostedClusterKind, hostedControlPlaneKind, nodePoolKind } from './v1beta1/kinds.ts';
export { kindDefinition, validateObject } from './v1beta1/validate.ts';
export {
  ALL_IS_WELL_MESSAGE,
  HostedClusterConditionReason,
  HostedClusterConditionType,
  NodePoolConditionReason,
  NodePoolConditionType,
  type CatalogueEntry,
} from './v1beta1/conditions.ts';
export { Annotation, InstallCliVersionAnnotation, KubevirtDefaults, Label, OperatorLabel, PriorityClass } from './v1beta1/well-known.ts';
export { applyDefaults } from './schema/defaults.ts';
export { renderCrd, type CustomResourceDefinition } from './schema/crd.ts';
export { formatViolation, type Violation } from './schema/violation.ts';
export type { ObjectValidation, ValidateObjectOptions } from './schema/validate-object.ts';
