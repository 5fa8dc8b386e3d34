/**
 * A hosted API server's request rate, from two reads of its `/metrics` (the counter `apiserver_request_total`, summed
 * over every verb, resource and code): what the add-on asks Prometheus as `sum(rate(apiserver_request_total[2m]))`,
 * measured directly so no monitoring stack is needed.
 */

const COUNTER = 'apiserver_request_total';

/** The sum of every `apiserver_request_total` sample in a Prometheus text exposition (0 when it has none). */
export function requestTotal(exposition: string): number {
  let total = 0;
  for (const line of exposition.split('\n')) {
    if (!line.startsWith(`${COUNTER}{`) && !line.startsWith(`${COUNTER} `)) continue;
    const value = Number(line.slice(line.lastIndexOf('}') + 1).trim().split(/\s+/)[0]);
    if (Number.isFinite(value)) total += value;
  }
  return total;
}

/**
 * Requests per second between two totals taken `seconds` apart. A counter that went down was reset (the API server
 * restarted): what it counted since is the rate's lower bound.
 */
export function ratePerSecond(before: number, after: number, seconds: number): number {
  if (seconds <= 0) return 0;
  return (after >= before ? after - before : after) / seconds;
}
