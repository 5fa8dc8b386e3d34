import type { KubeClient } from '../kube/client.ts';
import { KubeApiError } from '../kube/errors.ts';
import { sleep, type Clock } from './clock.ts';
import type { Logger } from './logger.ts';

/** Options of {@link LeaderElector}; the durations are client-go's defaults (15 s / 10 s / 2 s). */
export interface LeaderElectionOptions {
  readonly client: KubeClient;
  readonly namespace: string;
  readonly name: string;
  /** This replica's identity, unique among replicas (the pod name). */
  readonly identity: string;
  readonly clock: Clock;
  readonly logger: Logger;
  /** How long a lease is valid after its last renewal. @default 15000 */
  readonly leaseDurationMs?: number;
  /** How long the leader keeps trying to renew before it gives up leading. @default 10000 */
  readonly renewDeadlineMs?: number;
  /** How often candidates try to acquire and the leader renews. @default 2000 */
  readonly retryPeriodMs?: number;
}

interface LeaseSpec {
  holderIdentity?: string | null;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

interface Lease {
  apiVersion: 'coordination.k8s.io/v1';
  kind: 'Lease';
  metadata: { name: string; namespace: string; resourceVersion?: string };
  spec?: LeaseSpec;
}

/** MicroTime as the API expects it: RFC 3339 with microseconds. */
const microTime = (ms: number): string => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

const isConflict = (error: unknown): boolean => error instanceof KubeApiError && (error.status === 409 || error.status === 422);

/**
 * Leader election on a `coordination.k8s.io` Lease, as client-go does it: candidates try every retry period; a lease
 * counts as expired when its record has not changed for the lease duration *as observed locally* (so clock skew
 * between replicas does not matter); the leader renews every retry period and steps down if it cannot renew within
 * the renew deadline. On a graceful stop the leader releases the lease so a successor takes over at once.
 */
export class LeaderElector {
  private readonly o: Required<LeaderElectionOptions>;
  private observed: { record: string; at: number } | undefined;

  constructor(options: LeaderElectionOptions) {
    this.o = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000, ...options };
  }

  /**
   * Campaigns until elected, then calls `lead` with a signal that aborts when leadership is lost or `signal` aborts.
   * Resolves after leading ends (the caller should then exit, as controller-runtime does) or when `signal` aborts.
   */
  async run(signal: AbortSignal, lead: (leading: AbortSignal) => Promise<void>): Promise<void> {
    while (!signal.aborted && !(await this.tryAcquireOrRenew())) await sleep(this.o.clock, this.o.retryPeriodMs, signal);
    if (signal.aborted) return;
    this.o.logger.info('became leader', { lease: `${this.o.namespace}/${this.o.name}`, identity: this.o.identity });
    const leading = new AbortController();
    const onStop = (): void => leading.abort();
    signal.addEventListener('abort', onStop, { once: true });
    const work = lead(leading.signal);
    await this.renewWhileLeading(leading);
    signal.removeEventListener('abort', onStop);
    await work;
    if (signal.aborted) await this.release();
  }

  private async renewWhileLeading(leading: AbortController): Promise<void> {
    let lastRenewal = this.o.clock.now();
    while (!leading.signal.aborted) {
      await sleep(this.o.clock, this.o.retryPeriodMs, leading.signal);
      if (leading.signal.aborted) return;
      if (await this.tryAcquireOrRenew()) {
        lastRenewal = this.o.clock.now();
      } else if (this.o.clock.now() - lastRenewal >= this.o.renewDeadlineMs) {
        this.o.logger.error('lost leadership: could not renew the lease within the renew deadline', { lease: `${this.o.namespace}/${this.o.name}` });
        leading.abort();
      }
    }
  }

  private ref(): { apiVersion: 'coordination.k8s.io/v1'; kind: 'Lease'; name: string; namespace: string } {
    return { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', name: this.o.name, namespace: this.o.namespace };
  }

  private spec(now: number, previous: LeaseSpec | undefined): LeaseSpec {
    const ours = previous?.holderIdentity === this.o.identity;
    return {
      holderIdentity: this.o.identity,
      leaseDurationSeconds: Math.ceil(this.o.leaseDurationMs / 1000),
      acquireTime: ours && previous.acquireTime !== undefined ? previous.acquireTime : microTime(now),
      renewTime: microTime(now),
      leaseTransitions: (previous?.leaseTransitions ?? 0) + (ours || previous === undefined ? 0 : 1),
    };
  }

  /** Whether someone else holds a lease whose record changed within the lease duration (locally observed). */
  private heldByOther(lease: Lease, now: number): boolean {
    const record = JSON.stringify(lease.spec ?? {});
    if (this.observed?.record !== record) this.observed = { record, at: now };
    const holder = lease.spec?.holderIdentity ?? '';
    return holder !== '' && holder !== this.o.identity && now - this.observed.at < this.o.leaseDurationMs;
  }

  private async tryAcquireOrRenew(): Promise<boolean> {
    const now = this.o.clock.now();
    try {
      const current = await this.o.client.tryGet<Lease>(this.ref());
      if (current === undefined) {
        await this.o.client.create<Lease>({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: this.o.name, namespace: this.o.namespace }, spec: this.spec(now, undefined) });
        return true;
      }
      if (this.heldByOther(current, now)) return false;
      await this.o.client.replace<Lease>({ ...current, spec: this.spec(now, current.spec) });
      return true;
    } catch (error) {
      if (!isConflict(error)) this.o.logger.error('lease update failed', { lease: `${this.o.namespace}/${this.o.name}`, reason: error instanceof Error ? error.message : String(error) });
      return false;
    }
  }

  /** Gives the lease up so the next candidate need not wait for it to expire. */
  private async release(): Promise<void> {
    try {
      const current = await this.o.client.tryGet<Lease>(this.ref());
      if (current?.spec?.holderIdentity !== this.o.identity) return;
      await this.o.client.replace<Lease>({ ...current, spec: { ...current.spec, holderIdentity: null, leaseDurationSeconds: 1 } });
      this.o.logger.info('released the lease', { lease: `${this.o.namespace}/${this.o.name}` });
    } catch (error) {
      this.o.logger.error('could not release the lease', { reason: error instanceof Error ? error.message : String(error) });
    }
  }
}
