/**
 * The KubeVirt stand-in's CDI part (docs/local-environment.md, "The KubeVirt stand-in"): it writes each DataVolume's
 * phase and conditions as CDI would, importing nothing but what the `vm` backend's container disk imports bring.
 */
import { Controller } from '../../runtime/controller.ts';
import type { Informer } from '../../runtime/informer.ts';
import { Metrics } from '../../runtime/metrics.ts';
import type { KubeClient } from '../../kube/client.ts';
import type { Clock } from '../../runtime/clock.ts';
import type { Logger } from '../../runtime/logger.ts';
import type { ContainerDiskImports } from './disk-imports.ts';
import { DATA_VOLUME, dataVolumeOutcome, dataVolumeStatus, registryImage, type DataVolumeLookup, type StoredDataVolume } from './data-volumes.ts';
import { STAND_IN_NAME } from './instance.ts';
import { report, type Reported } from './reports.ts';

/** What the CDI stand-in needs: the cluster, time, a log, and the `vm` backend's container disk imports if any. */
export interface CdiStandInOptions {
  readonly client: KubeClient;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly containerDisks?: ContainerDiskImports;
}

/** Looks DataVolumes up in the stand-in's cache. */
export const lookupIn = (dataVolumes: Informer<StoredDataVolume>): DataVolumeLookup => (namespace, name) => dataVolumes.get(`${namespace}/${name}`);

/**
 * CDI's part: writes each DataVolume's phase and conditions (once per change), and looks again at the clones of a
 * DataVolume when it changes.
 */
export function startDataVolumeStandIn(o: CdiStandInOptions, dataVolumes: Informer<StoredDataVolume>): Controller {
  const reported: Reported = new Map();
  const lookup = lookupIn(dataVolumes);
  const reconcile = async (key: string): Promise<Record<string, never>> => {
    const dv = dataVolumes.get(key);
    if (dv === undefined) {
      reported.delete(key);
      return {};
    }
    const status = dataVolumeStatus(dataVolumeOutcome(dv, lookup, o.containerDisks?.importer));
    await report(reported, key, JSON.stringify([status, dv.metadata.generation]), async () => {
      await o.client.apply({ ...DATA_VOLUME, metadata: { name: dv.metadata.name, namespace: dv.metadata.namespace }, status }, { fieldManager: STAND_IN_NAME, subresource: 'status' });
    });
    return {};
  };
  const controller = new Controller({ name: 'cdi-standin', clock: o.clock, logger: o.logger, metrics: new Metrics(), workers: 1, reconcile });
  // An import that ends brings back the DataVolumes importing that image (their clones follow their status).
  o.containerDisks?.onSettled((image) => {
    for (const dv of dataVolumes.list()) if (dv.spec.source?.registry !== undefined && registryImage(dv.spec.source.registry.url) === image) controller.queue.add(`${dv.metadata.namespace}/${dv.metadata.name}`);
  });
  controller.watch(dataVolumes, (event) => {
    const { namespace, name } = event.object.metadata;
    const clones = dataVolumes.list().filter((d) => d.spec.source?.pvc?.namespace === namespace && d.spec.source.pvc.name === name);
    return [`${namespace}/${name}`, ...clones.map((d) => `${d.metadata.namespace}/${d.metadata.name}`)];
  });
  return controller;
}
