// `hcp-operator availability-prober --target URL`: the init container of control-plane components that cannot start
// before the hosted API server answers (an https:// target), and of the API server until etcd takes connections (a
// tcp:// target) (kube-controller-manager and kube-scheduler exit at once when they cannot read
// its authentication ConfigMap, and the kubelet then backs off for up to minutes). Upstream ships the same program in
// its control-plane operator image; this one is the operator's own image.
import { request } from 'node:https';
import { connect } from 'node:net';

/** The outcome of one probe: the HTTP status, or the network error. */
export type ProbeOutcome = { readonly status: number } | { readonly error: string };

/** Options of {@link waitUntilAvailable}. */
export interface ProberOptions {
  readonly target: string;
  readonly probe: (target: string) => Promise<ProbeOutcome>;
  readonly sleep: (ms: number) => Promise<void>;
  readonly log: (line: string) => void;
  /** Between probes. @default 1000 */
  readonly intervalMs?: number;
}

/** Probes until the target answers 200, logging each different reason it did not (not every attempt). */
export async function waitUntilAvailable(options: ProberOptions): Promise<void> {
  let lastReason = '';
  for (;;) {
    const outcome = await options.probe(options.target);
    if ('status' in outcome && outcome.status === 200) {
      options.log(`${options.target} is available`);
      return;
    }
    const reason = 'status' in outcome ? `HTTP ${String(outcome.status)}` : outcome.error;
    if (reason !== lastReason) options.log(`waiting for ${options.target}: ${reason}`);
    lastReason = reason;
    await options.sleep(options.intervalMs ?? 1000);
  }
}

/**
 * One GET of the target. The serving certificate is not verified: the prober only asks whether the server is up,
 * sends no credentials, and runs before the CA it would need is of any use (as upstream's prober does).
 */
export function httpsProbe(target: string): Promise<ProbeOutcome> {
  return new Promise((resolve) => {
    const req = request(target, { method: 'GET', rejectUnauthorized: false, timeout: 5000 }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0 });
    });
    req.on('timeout', () => req.destroy(new Error('timed out after 5 s')));
    req.on('error', (error) => resolve({ error: error.message }));
    req.end();
  });
}

/**
 * One connection to a `tcp://host:port` target, closed at once: "available" (reported as 200) once something accepts
 * it. Used for etcd, whose client port wants a client certificate before it says anything over HTTP.
 */
export function tcpProbe(target: string): Promise<ProbeOutcome> {
  const url = new URL(target);
  return new Promise((resolve) => {
    const socket = connect({ host: url.hostname, port: Number(url.port), timeout: 5000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve({ status: 200 });
    });
    socket.once('timeout', () => socket.destroy(new Error('timed out after 5 s')));
    socket.once('error', (error) => resolve({ error: error.message }));
  });
}
