import { s } from '../../schema/build.ts';
import type { ObjectSchema, Schema } from '../../schema/model.ts';
import { platformType } from './common.ts';
import { kubevirtPlatformSpec } from './kubevirt.ts';

/** Platform sections other than KubeVirt: kept as given so upstream manifests round-trip, but not implemented. */
const otherPlatforms = (names: readonly string[]): Record<string, Schema> =>
  Object.fromEntries(
    names.map((name) => [name, s.opaque(`Settings of the ${name} platform; stored as given, not implemented here.`)]),
  );

/** Platforms HyperShift defines besides KubeVirt, accepted for manifest compatibility but not implemented. */
export const OTHER_PLATFORMS = ['aws', 'azure', 'ibmcloud', 'powervs', 'agent', 'openstack', 'gcp'] as const;

/** Builds a `platform` object with `type`, the KubeVirt section and the other platforms as opaque sections. */
export function platformSpec(name: string, description: string, kubevirt: ObjectSchema): ObjectSchema {
  return s.object(
    name,
    description,
    { type: platformType, kubevirt, ...otherPlatforms(OTHER_PLATFORMS) },
    { required: ['type'] },
  );
}

/** `PlatformSpec`: the platform of a HostedCluster, shared as-is by its HostedControlPlane (as upstream's types do). */
export const clusterPlatformSpec: ObjectSchema = platformSpec('PlatformSpec', 'The infrastructure of the hosted cluster.', kubevirtPlatformSpec);
