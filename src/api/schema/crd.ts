import type { KindDefinition } from './model.ts';
import { toOpenAPI } from './openapi.ts';

/** The subset of `apiextensions.k8s.io/v1` CustomResourceDefinition this project renders. */
export interface CustomResourceDefinition {
  apiVersion: 'apiextensions.k8s.io/v1';
  kind: 'CustomResourceDefinition';
  metadata: { name: string; annotations?: Record<string, string> };
  spec: Record<string, unknown>;
}

const TYPE_META_DESCRIPTION = {
  apiVersion: 'The versioned schema of this representation of the object.',
  kind: 'The REST resource this object represents, in CamelCase.',
};

function rootSchema(def: KindDefinition): Record<string, unknown> {
  const root: Record<string, unknown> = {
    description: def.description,
    type: 'object',
    properties: {
      apiVersion: { type: 'string', description: TYPE_META_DESCRIPTION.apiVersion },
      kind: { type: 'string', description: TYPE_META_DESCRIPTION.kind },
      metadata: { type: 'object' },
      spec: toOpenAPI(def.spec),
      status: toOpenAPI(def.status),
    },
  };
  if (def.specRequired) root['required'] = ['spec'];
  if (def.rootRules !== undefined && def.rootRules.length > 0) {
    root['x-kubernetes-validations'] = def.rootRules.map((r) => ({ rule: r.rule, message: r.message }));
  }
  return root;
}

function subresources(def: KindDefinition): Record<string, unknown> {
  return {
    status: {},
    ...(def.scale === undefined ? {} : { scale: { ...def.scale } }),
  };
}

/** Renders the CustomResourceDefinition of one kind. Pure: the same definition always yields the same object. */
export function renderCrd(def: KindDefinition): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${def.plural}.${def.group}` },
    spec: {
      group: def.group,
      names: {
        kind: def.kind,
        listKind: `${def.kind}List`,
        plural: def.plural,
        singular: def.singular,
        shortNames: [...def.shortNames],
        ...(def.categories === undefined ? {} : { categories: [...def.categories] }),
      },
      scope: 'Namespaced',
      versions: [
        {
          name: def.version,
          served: true,
          storage: true,
          schema: { openAPIV3Schema: rootSchema(def) },
          subresources: subresources(def),
          ...(def.printerColumns.length === 0
            ? {}
            : { additionalPrinterColumns: def.printerColumns.map((c) => ({ ...c })) }),
        },
      ],
    },
  };
}
