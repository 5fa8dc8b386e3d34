import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HostedControlPlane } from '../../api/index.ts';
import { effectiveMetricsSet, InvalidMetricsSetError, parseMetricsSet } from './metrics-set.ts';
import { relabelingsFor } from './relabel.ts';
import { parseSreMetricsConfig, SreMetricsConfigError } from './sre-config.ts';

const plane = (monitoring?: HostedControlPlane['spec']['monitoring']): HostedControlPlane => ({ apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedControlPlane', metadata: {}, spec: { ...(monitoring === undefined ? {} : { monitoring }) } as HostedControlPlane['spec'] });

describe('metrics sets', () => {
  it('When METRICS_SET is empty or names a set in any case, it should give that set (Telemetry by default)', () => {
    assert.equal(parseMetricsSet(undefined), 'Telemetry');
    assert.equal(parseMetricsSet(''), 'Telemetry');
    assert.equal(parseMetricsSet('sre'), 'SRE');
    assert.equal(parseMetricsSet('ALL'), 'All');
  });

  it('When METRICS_SET names no set, it should refuse with upstream words', () => {
    assert.throws(() => parseMetricsSet('Everything'), (e: unknown) => e instanceof InvalidMetricsSetError && e.message === 'invalid metrics set: Everything');
  });

  it("When the cluster names its own set, it should win over the operator's", () => {
    assert.equal(effectiveMetricsSet(plane({ metricsSet: 'All' }), 'Telemetry'), 'All');
    assert.equal(effectiveMetricsSet(plane(), 'SRE'), 'SRE');
  });

  it('When the set is SRE, it should take the configuration per component and keep everything of a component it does not name', () => {
    const sre = parseSreMetricsConfig({ config: 'kubeAPIServer:\n  - action: drop\n    regex: "etcd_.*"\n    sourceLabels: ["__name__"]\n' });
    assert.deepEqual(relabelingsFor('kubeAPIServer', 'SRE', sre), [{ action: 'drop', regex: 'etcd_.*', sourceLabels: ['__name__'] }]);
    assert.deepEqual(relabelingsFor('etcd', 'SRE', sre), []);
    assert.deepEqual(relabelingsFor('etcd', 'SRE', undefined), []);
  });

  it('When the set is Telemetry, it should keep only named series, and the scheduler none', () => {
    assert.equal(relabelingsFor('kubeAPIServer', 'Telemetry', undefined)[0]?.action, 'keep');
    assert.deepEqual(relabelingsFor('kubeScheduler', 'Telemetry', undefined), [{ action: 'drop', regex: '.*', sourceLabels: ['__name__'] }]);
    assert.equal(relabelingsFor('kubeAPIServer', 'All', undefined).every((r) => r.action === 'drop'), true);
  });
});

describe('the sre-metric-set ConfigMap', () => {
  const refused = (config: string, words: RegExp): void => {
    assert.throws(() => parseSreMetricsConfig({ config }), (e: unknown) => e instanceof SreMetricsConfigError && words.test(e.message), words.source);
  };

  it('When the key config is missing, it should say so in upstream words', () => {
    assert.throws(() => parseSreMetricsConfig({ other: '' }), /configmap does not contain configuration key config/);
  });

  it('When the YAML does not parse or misspells a component, field, action or regex, it should name the place', () => {
    refused('kubeAPIServer: [', /^failed to unmarshal metrics set configuration: /);
    refused('kubeApiServer: []', /unknown component "kubeApiServer"/);
    refused('etcd:\n  - action: drop\n    sourcelabels: [a]', /etcd\[0\]: unknown field "sourcelabels"/);
    refused('etcd:\n  - action: remove', /etcd\[0\]\.action: "remove" is not one of/);
    refused('etcd:\n  - action: drop\n    regex: "etcd_(disk"', /etcd\[0\]\.regex: /);
    refused('etcd:\n  - sourceLabels: __name__', /etcd\[0\]\.sourceLabels: want a list/);
    refused('- etcd', /want a map from component/);
  });

  it('When the manual’s example is given, it should parse every component, including ones this product does not run', () => {
    const config = parseSreMetricsConfig({ config: 'kubeAPIServer:\n  - action: "drop"\n    regex: "etcd_(debugging|disk|server).*"\n    sourceLabels: ["__name__"]\nolm:\n  - action: "drop"\n    regex: "etcd_.*"\n    sourceLabels: ["__name__"]\ncvo: null\n' });
    assert.deepEqual(Object.keys(config), ['kubeAPIServer', 'olm']);
  });
});
