/**
 * The API load of the running hosted control planes, for the average-QPS capacity gauge: each hosted API server's
 * `apiserver_request_total`, read when `/metrics` is scraped, against the reading of the scrape before. Prometheus'
 * scrape interval is the window, so nothing runs on a timer and no monitoring stack is needed (the add-on asks
 * Prometheus for `rate(apiserver_request_total[2m])`).
 */
import { ratePerSecond, requestTotal } from '../../../capacity/qps.ts';
import type { Clock } from '../../../runtime/clock.ts';
import { KubeconfigClients } from '../../../runtime/kubeconfig-clients.ts';
import type { Logger } from '../../../runtime/logger.ts';
import { METRICS_MAX_BYTES } from '../../../kube/rest.ts';

/** A running hosted API server: its HostedControlPlane's uid and an admin kubeconfig that reaches it. */
export interface HostedAPIServer {
  readonly owner: string;
  readonly kubeconfig: string;
}

/** How long one API server may take to answer before the scrape goes on without it. */
const READ_TIMEOUT_MS = 2_000;
/** Scrapes closer together than this share one sample (each gauge of a scrape asks). */
const SAMPLE_REUSE_MS = 1_000;

interface Reading {
  readonly total: number;
  readonly at: number;
}

/** Samples the request rates of the API servers `servers` lists, at most once per scrape. */
export class LoadSampler {
  private readonly clients = new KubeconfigClients();
  private readonly readings = new Map<string, Reading>();
  private readonly rates = new Map<string, number>();
  /** Every control plane asked about since it appeared (its client lives until it goes). */
  private readonly known = new Set<string>();
  private last: { at: number; rates: Promise<number[]> } | undefined;
  private readonly o: { servers: () => readonly HostedAPIServer[]; clock: Clock; logger: Logger };

  constructor(options: { servers: () => readonly HostedAPIServer[]; clock: Clock; logger: Logger }) {
    this.o = options;
  }

  /** The request rate of each API server read twice so far (an API server read once has no rate yet). */
  sample(): Promise<number[]> {
    const now = this.o.clock.now();
    if (this.last !== undefined && now - this.last.at < SAMPLE_REUSE_MS) return this.last.rates;
    const rates = this.readAll(now);
    this.last = { at: now, rates };
    return rates;
  }

  private async readAll(now: number): Promise<number[]> {
    const servers = this.o.servers();
    const present = new Set(servers.map((s) => s.owner));
    for (const owner of [...this.known].filter((o) => !present.has(o))) this.forget(owner);
    for (const owner of present) this.known.add(owner);
    await Promise.all(servers.map((server) => this.readOne(server, now)));
    return [...this.rates.values()];
  }

  private async readOne(server: HostedAPIServer, now: number): Promise<void> {
    let total: number;
    try {
      const client = this.clients.clientFor(server.owner, server.kubeconfig);
      total = requestTotal(await client.rest.getText('/metrics', { timeoutMs: READ_TIMEOUT_MS, maxBytes: METRICS_MAX_BYTES }));
    } catch (error) {
      this.o.logger.info('the API load of a hosted control plane could not be read; left out of the average', { owner: server.owner, message: (error as Error).message });
      this.rates.delete(server.owner);
      this.readings.delete(server.owner);
      return;
    }
    const before = this.readings.get(server.owner);
    this.readings.set(server.owner, { total, at: now });
    if (before !== undefined && now > before.at) this.rates.set(server.owner, ratePerSecond(before.total, total, (now - before.at) / 1000));
  }

  private forget(owner: string): void {
    this.known.delete(owner);
    this.readings.delete(owner);
    this.rates.delete(owner);
    this.clients.forget(owner);
  }
}
