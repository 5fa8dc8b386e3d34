import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeDocument } from '../../../kube/client.ts';
import { scrubObject, SecretInDumpError, secretEntry } from './redact.ts';

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

describe('scrubObject', () => {
  it('When an object carries the last applied configuration, it should drop it (it can hold a Secret as applied) and keep other annotations', () => {
    const cm: KubeDocument = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', namespace: 'n', annotations: { [LAST_APPLIED]: '{"data":{"password":"hunter2"}}', keep: 'me' }, managedFields: [{ manager: 'kubectl' }] },
      data: { config: 'x' },
    };
    const out = scrubObject(cm);
    assert.deepEqual(out.metadata?.annotations, { keep: 'me' });
    assert.equal(out.metadata?.managedFields, undefined);
    assert.deepEqual(out['data'], { config: 'x' });
    assert.ok(cm.metadata?.annotations?.[LAST_APPLIED] !== undefined, 'the object read is not changed');
  });

  it('When the scrubbed annotations were the only ones, it should drop the empty annotations', () => {
    const out = scrubObject({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's', annotations: { [LAST_APPLIED]: '{}' } } });
    assert.equal(out.metadata?.annotations, undefined);
  });

  it('When a VM carries cloud-init user data inline, it should replace it by its length wherever it sits', () => {
    const vm: KubeDocument = {
      apiVersion: 'kubevirt.io/v1',
      kind: 'VirtualMachine',
      metadata: { name: 'vm' },
      spec: { template: { spec: { volumes: [{ name: 'ci', cloudInitNoCloud: { userData: 'token: abcdef', networkDataBase64: 'eHl6' } }] } } },
    };
    const text = JSON.stringify(scrubObject(vm));
    assert.doesNotMatch(text, /abcdef|eHl6/);
    assert.match(text, /<redacted: 13 characters>/);
  });

  it('When a Secret reaches it, it should refuse rather than write it', () => {
    assert.throws(() => scrubObject({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'n' }, data: { k: 'dg==' } }), SecretInDumpError);
  });
});

describe('secretEntry', () => {
  it('When a Secret has data and stringData, it should keep its name, type and key names only', () => {
    const secret: KubeDocument = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'pull-secret', namespace: 'clusters-example', annotations: { [LAST_APPLIED]: 'value' } },
      type: 'kubernetes.io/dockerconfigjson',
      data: { '.dockerconfigjson': 'c2VjcmV0' },
      stringData: { extra: 'plain', '.dockerconfigjson': 'again' },
    };
    assert.deepEqual(secretEntry(secret), { name: 'pull-secret', namespace: 'clusters-example', type: 'kubernetes.io/dockerconfigjson', keys: ['.dockerconfigjson', 'extra'] });
  });

  it('When a Secret has no type or data, it should be Opaque with no keys', () => {
    assert.deepEqual(secretEntry({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'n' } }), { name: 's', namespace: 'n', type: 'Opaque', keys: [] });
  });

  it('When a spec or a pod argument holds a pre-signed URL, it should keep the address and drop the query that grants access', () => {
    const url = 'https://store.example:7070/backups/demo/1.db?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA%2F20261127&X-Amz-Signature=abc123';
    const hc = { apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster', metadata: { name: 'demo' }, spec: { etcd: { managed: { storage: { restoreSnapshotURL: [url, 's3://backups/demo/1.db'] } } } } };
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'etcd-0' }, spec: { initContainers: [{ args: [`--url=${url}`, '--data-dir=/var/lib/data'] }] } };
    const text = JSON.stringify([scrubObject(hc), scrubObject(pod)]);
    assert.doesNotMatch(text, /X-Amz-Signature|abc123|AKIA/);
    assert.match(text, /"https:\/\/store.example:7070\/backups\/demo\/1.db\?<redacted: pre-signed query>"/);
    assert.match(text, /"--url=https:\/\/store.example:7070\/backups\/demo\/1.db\?<redacted: pre-signed query>"/);
    assert.match(text, /"s3:\/\/backups\/demo\/1.db"/);
  });
});
