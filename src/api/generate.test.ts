import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { REPO_ROOT } from '../testing/paths.ts';
import { generatedApiFiles, generatedChartFiles } from './generate.ts';
import { compileRule } from './schema/cel.ts';
import type { CelRule, Schema } from './schema/model.ts';
import { KINDS } from './v1beta1/kinds.ts';

type Json = Record<string, unknown>;

function crdOf(plural: string): Json {
  const file = generatedApiFiles().find((f) => f.path.endsWith(`_${plural}.yaml`));
  assert.ok(file, `no generated CRD for ${plural}`);
  return parse(file.content) as Json;
}

function versionOf(crd: Json): Json {
  return ((crd['spec'] as Json)['versions'] as Json[])[0] as Json;
}

function* rulesOf(schema: Schema, path: string): Generator<{ path: string; rule: CelRule }> {
  for (const rule of schema.rules ?? []) yield { path, rule };
  if (schema.type === 'object') for (const [k, v] of Object.entries(schema.properties)) yield* rulesOf(v, `${path}.${k}`);
  if (schema.type === 'array') yield* rulesOf(schema.items, `${path}[]`);
  if (schema.type === 'map') yield* rulesOf(schema.values, `${path}{}`);
}

/** Every node of a structural schema must say its type (or be int-or-string / preserve-unknown). */
function* untypedNodes(node: Json, path: string): Generator<string> {
  const typed = node['type'] !== undefined || node['x-kubernetes-int-or-string'] === true;
  if (!typed) yield path;
  for (const [k, v] of Object.entries((node['properties'] as Json | undefined) ?? {})) yield* untypedNodes(v as Json, `${path}.${k}`);
  if (node['items'] !== undefined) yield* untypedNodes(node['items'] as Json, `${path}[]`);
  if (typeof node['additionalProperties'] === 'object') yield* untypedNodes(node['additionalProperties'] as Json, `${path}{}`);
}

describe('generatedApiFiles', () => {
  for (const file of [...generatedApiFiles(), ...generatedChartFiles()]) {
    it(`When ${file.path} is compared with the generator output, it should not have drifted (run ./dev generate)`, () => {
      assert.equal(readFileSync(join(REPO_ROOT, file.path), 'utf8'), file.content);
    });
  }

  it('When the HostedCluster CRD is rendered, it should print the columns of the product manual', () => {
    const columns = versionOf(crdOf('hostedclusters'))['additionalPrinterColumns'] as Json[];
    assert.deepEqual(columns.map((c) => c['name']), ['Version', 'KubeConfig', 'Progress', 'Available', 'Progressing', 'Message']);
  });

  it('When the NodePool CRD is rendered, it should print upstream columns and expose the scale subresource', () => {
    const version = versionOf(crdOf('nodepools'));
    const columns = version['additionalPrinterColumns'] as Json[];
    assert.deepEqual(columns.map((c) => c['name']), [
      'Cluster',
      'Desired Nodes',
      'Current Nodes',
      'Autoscaling',
      'Autorepair',
      'Version',
      'UpdatingVersion',
      'UpdatingConfig',
      'Message',
    ]);
    assert.deepEqual(version['subresources'], {
      status: {},
      scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
    });
  });

  it('When the CRDs are rendered, they should carry the upstream short names', () => {
    const names = (plural: string): unknown => ((crdOf(plural)['spec'] as Json)['names'] as Json)['shortNames'];
    assert.deepEqual(names('hostedclusters'), ['hc', 'hcs']);
    assert.deepEqual(names('nodepools'), ['np', 'nps']);
    assert.deepEqual(names('hostedcontrolplanes'), ['hcp', 'hcps']);
  });

  for (const kind of KINDS) {
    it(`When the ${kind.kind} CRD is rendered, it should be a structural schema with a status subresource`, () => {
      const version = versionOf(crdOf(kind.plural));
      const schema = (version['schema'] as Json)['openAPIV3Schema'] as Json;
      assert.deepEqual([...untypedNodes(schema, '')], []);
      assert.deepEqual((version['subresources'] as Json)['status'], {});
    });

    it(`When the ${kind.kind} CEL rules are compiled, every one of them should be valid CEL`, () => {
      const rules = [...rulesOf(kind.spec, 'spec'), ...rulesOf(kind.status, 'status')];
      for (const { path, rule } of rules) assert.doesNotThrow(() => compileRule(rule.rule), `${path}: ${rule.rule}`);
      for (const rule of kind.rootRules ?? []) assert.doesNotThrow(() => compileRule(rule.rule), rule.rule);
      assert.ok(rules.length > 0);
    });
  }

  it('When the spec casing of the KubeVirt fields is checked, it should match upstream exactly', () => {
    const text = generatedApiFiles().find((f) => f.path.endsWith('zz_generated.types.ts'))?.content ?? '';
    for (const field of ['networkInterfaceMultiqueue?:', 'hostDevices?:', 'diskImage?:', 'kubeVirt?:', 'kubevirt?:']) {
      assert.ok(text.includes(field), field);
    }
  });
});
