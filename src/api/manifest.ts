import type { OwnerReference } from './meta.ts';

/** A rendered Kubernetes object: plain data with type metadata and a name. */
export interface KubeManifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string>; ownerReferences?: OwnerReference[] };
  [key: string]: unknown;
}

/** Whether a manifest holds secret data (left out of `--render` output unless `--render-sensitive`). */
export const isSecret = (m: KubeManifest): boolean => m.apiVersion === 'v1' && m.kind === 'Secret';
