import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { realClock } from '../../../runtime/clock.ts';
import { silentLogger } from '../../../runtime/logger.ts';
import { Metrics } from '../../../runtime/metrics.ts';
import { CapacityGaugeSet } from './gauges.ts';
import { LoadSampler } from './load-sampler.ts';

const DASHBOARD = join(import.meta.dirname, '..', '..', '..', '..', 'deploy', 'grafana', 'hcp-kubevirt-dashboard.json');

interface Panel {
  id: number;
  type: string;
  title: string;
  targets?: Array<{ expr: string }>;
}

/** The metric names an expression reads (PromQL functions and label names aside). */
const metricsOf = (expr: string): string[] => [...expr.replace(/\b(by|without)\s*\([^)]*\)/g, '').matchAll(/\b([a-z][a-z0-9_]*)\s*(?=[{[)]|$)/g)].map((m) => m[1] ?? '').filter((name) => name.includes('_') && !['histogram_quantile'].includes(name));

describe('the Grafana dashboard', () => {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { panels: Panel[] };

  it('When it charts a metric, the operator should export that metric (a renamed metric cannot leave an empty panel behind)', async () => {
    const metrics = new Metrics({ process: true });
    new CapacityGaugeSet(metrics, new LoadSampler({ servers: () => [], clock: realClock, logger: silentLogger }));
    const exported = new Set(metrics.registry.getMetricsAsArray().map((m) => m.name));
    const charted = dashboard.panels.flatMap((p) => (p.targets ?? []).flatMap((t) => metricsOf(t.expr)));
    assert.ok(charted.length >= 25, `only ${String(charted.length)} metrics found in the panels`);
    const missing = charted.filter((name) => !exported.has(name.replace(/_(bucket|sum|count)$/, '')));
    assert.deepEqual(missing, []);
    await metrics.render();
  });

  it('When a panel groups by a label, the metric should carry that label as the operator exports it (client-go\'s labels, not ours)', () => {
    const metrics = new Metrics({ process: true });
    new CapacityGaugeSet(metrics, new LoadSampler({ servers: () => [], clock: realClock, logger: silentLogger }));
    const labelsOf = new Map(metrics.registry.getMetricsAsArray().map((m) => [m.name, new Set([...((m as unknown as { labelNames?: string[] }).labelNames ?? []), ...(String(m.type) === 'histogram' ? ['le'] : [])])]));
    const groupings = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr)).flatMap((expr) => [...expr.matchAll(/\bby\s*\(([^)]*)\)\s*\(([^]*)/g)].map((m) => ({ labels: (m[1] ?? '').split(',').map((l) => l.trim()), metrics: metricsOf(m[2] ?? '') })));
    assert.ok(groupings.length >= 20, `only ${String(groupings.length)} groupings found`);
    const missing = groupings.flatMap((g) => g.metrics.flatMap((name) => g.labels.filter((label) => !(labelsOf.get(name.replace(/_(bucket|sum|count)$/, '')) ?? new Set()).has(label)).map((label) => `${name} by ${label}`)));
    assert.deepEqual(missing, []);
    assert.deepEqual([...(labelsOf.get('rest_client_requests_total') ?? [])].slice(0, 3), ['code', 'method', 'host']);
    assert.deepEqual([...(labelsOf.get('leader_election_master_status') ?? [])], ['name']);
  });

  it('When loaded, its panels should have unique ids and every chart a query', () => {
    const ids = dashboard.panels.map((p) => p.id);
    assert.equal(new Set(ids).size, ids.length);
    for (const panel of dashboard.panels.filter((p) => p.type !== 'row')) assert.ok((panel.targets ?? []).length > 0, panel.title);
  });
});
