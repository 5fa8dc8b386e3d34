/**
 * The order in which a control plane moves to a new release (pure). Kubernetes' version-skew policy wants etcd before
 * the API server, the API server before the controllers, and those before whatever talks to them; so a component
 * whose release changes (its images, or the release its pods are annotated with) is applied only once every earlier
 * stage runs the rendered release, rolled out. Other changes (a renewed certificate, a new flag) are never held: the
 * order is about releases. A control plane created from nothing holds nothing, as no workload exists yet to be kept
 * on a previous release.
 */
import type { ComponentName } from '../../../controlplane/render.ts';
import { ControlPlaneNames } from '../../../controlplane/names.ts';
import { Annotation } from '../../../api/v1beta1/well-known.ts';

/** The stages, in order; the components of one stage move together. */
export const ROLLOUT_STAGES: ReadonlyArray<readonly ComponentName[]> = [
  [ControlPlaneNames.etcd],
  [ControlPlaneNames.kubeAPIServer],
  [ControlPlaneNames.kubeControllerManager, ControlPlaneNames.kubeScheduler],
  [ControlPlaneNames.kubevirtCloudControllerManager, ControlPlaneNames.kubevirtCSIController, ControlPlaneNames.ignitionServer],
];

/** A component's workload as it runs, in the terms the plan needs. */
export interface LiveComponent {
  /**
   * The images of its pod template (containers and init containers), sorted, and its release (see
   * {@link templateImages}).
   */
  readonly images: readonly string[];
  /** Every replica runs the current template and is available; no pod of an older one is left. */
  readonly rolledOut: boolean;
  /** Its rollout passed its progress deadline without completing. */
  readonly stalled: boolean;
  /** How far its rollout is, for messages (`1 of 3 replicas updated`). */
  readonly progress: string;
}

/** The component a rollout waits for, and why. */
export interface Waiting {
  readonly component: ComponentName;
  readonly stalled: boolean;
  readonly progress: string;
}

/** What may be applied now, and how far the control plane is from running the rendered release. */
export interface RolloutPlan {
  /** Components whose new images must not be applied yet: an earlier stage has not finished moving. */
  readonly held: ReadonlySet<ComponentName>;
  /** The first component, in stage order, not yet running the rendered release rolled out. */
  readonly waiting?: Waiting;
  /** Every rendered component runs the rendered images, rolled out. */
  readonly upToDate: boolean;
  /** Components running the rendered images and rolled out, of those rendered (for `n of m` messages). */
  readonly settled: number;
  readonly rendered: number;
}

const sameImages = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((image, i) => image === b[i]);

/**
 * Plans the rollout of the rendered components (`rendered`: each one's sorted images) against what runs (`live`:
 * undefined for a workload that does not exist).
 */
export function planRollout(rendered: ReadonlyMap<ComponentName, readonly string[]>, live: (component: ComponentName) => LiveComponent | undefined): RolloutPlan {
  const held = new Set<ComponentName>();
  const unsettled: Waiting[] = [];
  let settled = 0;
  for (const stage of ROLLOUT_STAGES) {
    const blocked = unsettled.length > 0;
    for (const component of stage.filter((c) => rendered.has(c))) {
      const step = componentStep(rendered.get(component) ?? [], live(component));
      if (blocked && step.moving) held.add(component);
      if (step.done) settled += 1;
      else unsettled.push({ component, stalled: step.stalled, progress: step.progress });
    }
  }
  const [waiting] = unsettled;
  return { held, ...(waiting === undefined ? {} : { waiting }), upToDate: waiting === undefined, settled, rendered: rendered.size };
}

/** One component against its rendered images: moving to new ones, done (rendered images rolled out), or stalled. */
function componentStep(images: readonly string[], running: LiveComponent | undefined): { moving: boolean; done: boolean; stalled: boolean; progress: string } {
  if (running === undefined) return { moving: false, done: false, stalled: false, progress: 'not created yet' };
  const moving = !sameImages(running.images, images);
  return { moving, done: !moving && running.rolledOut, stalled: !moving && running.stalled, progress: running.progress };
}

/** A pod template, as far as the release it runs. */
interface PodTemplate {
  metadata?: { annotations?: Record<string, string> };
  spec?: { containers?: Array<{ image?: string }>; initContainers?: Array<{ image?: string }> };
}

/**
 * What identifies the release a rendered or live workload runs: its pod template's images (containers and init
 * containers), sorted, then the release its template is annotated with. A component whose image a release does not
 * change (etcd, often) still moves with the release, in its stage.
 */
export function templateImages(workload: { spec?: { template?: PodTemplate } } | undefined): string[] {
  const template = workload?.spec?.template ?? {};
  return [...containerImages(template).sort(), `release=${template.metadata?.annotations?.[Annotation.ReleaseImage] ?? ''}`];
}

/** The images of a pod template's init containers and containers. */
const containerImages = (template: PodTemplate): string[] => [...(template.spec?.initContainers ?? []), ...(template.spec?.containers ?? [])].map((c) => c.image ?? '');

/** A Deployment or StatefulSet of a control plane, as far as the rollout and the readiness conditions read it. */
export interface Workload {
  metadata?: { generation?: number };
  spec?: { replicas?: number; template?: PodTemplate };
  status?: {
    replicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    unavailableReplicas?: number;
    updatedReplicas?: number;
    observedGeneration?: number;
    /** StatefulSets: the revision the pods run and the one they roll to. */
    currentRevision?: string;
    updateRevision?: string;
    conditions?: Array<{ type: string; status: string; reason?: string; message?: string }>;
  };
}

/**
 * A live Deployment or StatefulSet as a {@link LiveComponent}. Rolled out means the workload controller saw the latest
 * spec, every replica is updated and available (ready, for a StatefulSet) and no old pod remains.
 */
export function liveComponent(kind: 'Deployment' | 'StatefulSet', workload: Workload): LiveComponent {
  const want = workload.spec?.replicas ?? 1;
  const updated = workload.status?.updatedReplicas ?? 0;
  const serving = servingReplicas(kind, workload);
  const rolledOut = observedLatest(workload) && updated === want && serving >= want && noOldPods(kind, workload);
  return { images: templateImages(workload), rolledOut, stalled: pastDeadline(workload), progress: `${String(updated)} of ${String(want)} replicas updated, ${String(serving)} ${kind === 'Deployment' ? 'available' : 'ready'}` };
}

/** Replicas that serve: available ones of a Deployment, ready ones of a StatefulSet. */
const servingReplicas = (kind: 'Deployment' | 'StatefulSet', w: Workload): number => (kind === 'Deployment' ? w.status?.availableReplicas : w.status?.readyReplicas) ?? 0;

/** The workload controller has seen the latest spec. */
const observedLatest = (w: Workload): boolean => (w.status?.observedGeneration ?? 0) >= (w.metadata?.generation ?? 1);

/** No pod of an older template is left: a Deployment has exactly its replicas, a StatefulSet's revisions agree. */
const noOldPods = (kind: 'Deployment' | 'StatefulSet', w: Workload): boolean =>
  kind === 'Deployment' ? (w.status?.replicas ?? 0) === (w.spec?.replicas ?? 1) : w.status?.currentRevision === w.status?.updateRevision;

/** A Deployment whose rollout passed its progress deadline. */
const pastDeadline = (w: Workload): boolean => w.status?.conditions?.some((c) => c.type === 'Progressing' && c.status === 'False' && c.reason === 'ProgressDeadlineExceeded') === true;
