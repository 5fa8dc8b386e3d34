import { parse } from 'yaml';

/** The KubeVirt kinds whose CRDs are assembled from virt-operator's generated validation schemas. */
export const KUBEVIRT_KINDS = {
  virtualmachine: {
    kind: 'VirtualMachine',
    plural: 'virtualmachines',
    shortNames: ['vm', 'vms'],
    statusSubresource: true,
    columns: [
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      { name: 'Status', type: 'string', description: 'Human Readable Status', jsonPath: '.status.printableStatus' },
      { name: 'Ready', type: 'string', jsonPath: ".status.conditions[?(@.type=='Ready')].status" },
    ],
  },
  virtualmachineinstance: {
    kind: 'VirtualMachineInstance',
    plural: 'virtualmachineinstances',
    shortNames: ['vmi', 'vmis'],
    statusSubresource: false,
    columns: [
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
      { name: 'IP', type: 'string', jsonPath: '.status.interfaces[0].ipAddress' },
      { name: 'NodeName', type: 'string', jsonPath: '.status.nodeName' },
      { name: 'Ready', type: 'string', jsonPath: ".status.conditions[?(@.type=='Ready')].status" },
      { name: 'Live-Migratable', type: 'string', jsonPath: ".status.conditions[?(@.type=='LiveMigratable')].status", priority: 1 },
      { name: 'Paused', type: 'string', jsonPath: ".status.conditions[?(@.type=='Paused')].status", priority: 1 },
    ],
  },
} as const;

/** A KubeVirt singular name with an envelope. */
export type KubevirtKind = keyof typeof KUBEVIRT_KINDS;

/**
 * Builds the CRD virt-operator would install for a kind: KubeVirt ships no CRD YAML, only the schema (as YAML with
 * an `openAPIV3Schema:` root) and Go code that wraps it. Versions as virt-operator serves them: v1 (stored) and the
 * deprecated v1alpha3, both with the same schema.
 */
export function kubevirtCrd(singular: KubevirtKind, validationYaml: string): Record<string, unknown> {
  const spec = KUBEVIRT_KINDS[singular];
  const validation = parse(validationYaml) as Record<string, unknown>;
  const version = (name: string, storage: boolean): Record<string, unknown> => ({
    name,
    served: true,
    storage,
    ...(storage ? {} : { deprecated: true, deprecationWarning: 'kubevirt.io/v1alpha3 is now deprecated and will be removed in a future release.' }),
    schema: validation,
    additionalPrinterColumns: spec.columns,
    ...(spec.statusSubresource ? { subresources: { status: {} } } : {}),
  });
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${spec.plural}.kubevirt.io`, labels: { 'kubevirt.io': '' } },
    spec: {
      group: 'kubevirt.io',
      scope: 'Namespaced',
      names: { kind: spec.kind, plural: spec.plural, singular, shortNames: spec.shortNames, categories: ['all'] },
      versions: [version('v1', true), version('v1alpha3', false)],
    },
  };
}
