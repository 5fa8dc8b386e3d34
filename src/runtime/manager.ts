import type { KubeClient, KubeObject, ListSelector } from '../kube/client.ts';
import { untilAborted, type Clock } from './clock.ts';
import type { Controller } from './controller.ts';
import { Informer } from './informer.ts';
import { LeaderElector } from './leader.ts';
import type { Logger } from './logger.ts';
import type { Metrics } from './metrics.ts';

/** Options of {@link Manager}. */
export interface ManagerOptions {
  readonly client: KubeClient;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: Metrics;
  /** Leader election; without it every controller runs at once (a single replica, or tests). */
  readonly leaderElection?: { readonly namespace: string; readonly name: string; readonly identity: string; readonly leaseDurationMs?: number; readonly renewDeadlineMs?: number; readonly retryPeriodMs?: number };
  /** Passed to every informer (tests shorten it to exercise watch restarts). */
  readonly watchTimeoutSeconds?: number;
}

/** How a manager's run ended. */
export type RunOutcome = 'stopped' | 'lost-leadership';

/**
 * Owns the shared informers and the controllers. Every replica keeps its caches warm; only the elected leader runs
 * controllers, so only the leader writes. A leader that loses its lease stops its controllers and reports it, and
 * the process exits so that it restarts as a candidate with clean state.
 */
export class Manager {
  private readonly informers = new Map<string, Informer<KubeObject>>();
  private readonly controllers: Controller[] = [];
  private readonly leaderTasks: Array<(signal: AbortSignal) => Promise<void>> = [];
  private readonly termCleanups: Array<() => void> = [];
  private readonly o: ManagerOptions;
  private leading = false;

  constructor(options: ManagerOptions) {
    this.o = options;
  }

  /** The shared informer for a selector (one watch per selector, however many controllers use it). */
  informer<T extends KubeObject>(selector: ListSelector): Informer<T> {
    const key = JSON.stringify([selector.apiVersion, selector.kind, selector.namespace ?? '', selector.labelSelector ?? '', selector.fieldSelector ?? '']);
    let informer = this.informers.get(key);
    if (informer === undefined) {
      informer = new Informer<KubeObject>(this.o.client, selector, { clock: this.o.clock, logger: this.o.logger, watchTimeoutSeconds: this.o.watchTimeoutSeconds });
      this.informers.set(key, informer);
    }
    return informer as unknown as Informer<T>;
  }

  /** Adds a controller; it runs while this replica leads. */
  add(controller: Controller): void {
    this.controllers.push(controller);
  }

  /** Adds a task run once each time this replica becomes leader (e.g. publishing the supported versions). */
  addLeaderTask(task: (signal: AbortSignal) => Promise<void>): void {
    this.leaderTasks.push(task);
  }

  /**
   * Adds work run each time a leadership term ends, once every controller has drained its reconciles in flight: what
   * reconciles start for the term (informers of other clusters) is stopped here, and nothing starts it again late.
   */
  addTermCleanup(cleanup: () => void): void {
    this.termCleanups.push(cleanup);
  }

  /** Ready when every informer has loaded its first list. */
  ready(): boolean {
    return [...this.informers.values()].every((i) => i.hasSynced);
  }

  /** Whether this replica currently runs the controllers. */
  isLeader(): boolean {
    return this.leading;
  }

  /** Starts the informers, waits for their caches, then runs the controllers (as leader) until `signal` aborts. */
  async run(signal: AbortSignal): Promise<RunOutcome> {
    for (const informer of this.informers.values()) informer.start();
    try {
      // A stop may come before the caches load (an API server that stopped answering): it must not wait for them.
      await Promise.race([Promise.all([...this.informers.values()].map((i) => i.waitForSync())), untilAborted(signal)]);
      if (signal.aborted) return 'stopped';
      // A replica that does not lead says so from the start (client-go's standbys report 0).
      this.o.metrics.leader.set({ name: this.leaseName() }, 0);
      if (this.o.leaderElection === undefined) {
        await this.runControllers(signal);
        return 'stopped';
      }
      const elector = new LeaderElector({ client: this.o.client, clock: this.o.clock, logger: this.o.logger, ...this.o.leaderElection });
      await elector.run(signal, (leading) => this.runControllers(leading));
      return signal.aborted ? 'stopped' : 'lost-leadership';
    } finally {
      for (const informer of this.informers.values()) informer.stop();
    }
  }

  /** The lease this manager leads by (client-go's `name` label of leader_election_master_status); empty without election. */
  private leaseName(): string {
    return this.o.leaderElection?.name ?? '';
  }

  private async runControllers(signal: AbortSignal): Promise<void> {
    this.leading = true;
    this.o.metrics.leader.set({ name: this.leaseName() }, 1);
    try {
      // Leading lasts until the signal aborts, even for a manager whose controllers all stopped early.
      const tasks = this.leaderTasks.map((task) => task(signal).catch((error: unknown) => this.o.logger.error('leader task failed', { reason: error instanceof Error ? error.message : String(error) })));
      await Promise.all([...this.controllers.map((c) => c.run(signal)), ...tasks, untilAborted(signal)]);
    } finally {
      for (const cleanup of this.termCleanups) cleanup();
      this.leading = false;
      this.o.metrics.leader.set({ name: this.leaseName() }, 0);
    }
  }
}
