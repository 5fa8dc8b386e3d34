import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { HCPEtcdBackup } from '../../../api/index.ts';
import { toYaml } from '../../../lib/yaml.ts';
import { assertGolden } from '../../../testing/golden.ts';
import { backupJobName, renderBackupJob, renderClientCertificateCopy, snapshotKey } from './job.ts';
import { OurAnnotation } from '../../../api/v1beta1/well-known.ts';

const backup: HCPEtcdBackup = {
  apiVersion: 'hypershift.openshift.io/v1beta1',
  kind: 'HCPEtcdBackup',
  metadata: { name: 'nightly', namespace: 'clusters-demo', uid: '0f3a2b6c-1d4e-4f5a-8b9c-0d1e2f3a4b5c' },
  spec: { storage: { storageType: 'S3', s3: { bucket: 'hcp-etcd-backups', region: 'us-east-1', keyPrefix: 'demo/', credentials: { name: 'etcd-backup-s3' } } } },
};
const input = { backup, operatorNamespace: 'hypershift', operatorImage: 'quay.io/hcp-kubevirt/hcp-operator:v0.1.0', etcdImage: 'registry.k8s.io/etcd:3.6.8-0', key: snapshotKey('demo/', new Date('2026-11-27T09:00:00Z')) };
const golden = (name: string): string => join(import.meta.dirname, 'testdata', name);

describe('the etcd backup Job', () => {
  it('When a backup starts, it should snapshot through the client Service, check the file and upload it with the named credentials', () => {
    assertGolden(golden('job.yaml'), toYaml(renderBackupJob({ ...input, defaultUid: 1001 })));
  });

  it('When a scheduled backup carries a retention, its upload should keep that many snapshots; other backups delete nothing', () => {
    const uploadArgs = (b: HCPEtcdBackup): string[] => (renderBackupJob({ ...input, backup: b }) as unknown as { spec: { template: { spec: { containers: Array<{ args: string[] }> } } } }).spec.template.spec.containers[0]?.args ?? [];
    assert.ok(uploadArgs({ ...backup, metadata: { ...backup.metadata, annotations: { [OurAnnotation.EtcdBackupRetainSnapshots]: '7' } } }).includes('--keep=7'));
    assert.equal(uploadArgs(backup).some((a) => a.startsWith('--keep')), false);
  });

  it('When the management cluster assigns pod users (OpenShift), it should set none', () => {
    const spec = (renderBackupJob(input) as unknown as { spec: { template: { spec: { securityContext: Record<string, unknown> } } } }).spec.template.spec;
    assert.deepEqual(spec.securityContext, { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
  });

  it('When the certificate is copied, it should carry only the client pair and its CA, under the Job\'s name', () => {
    const copy = renderClientCertificateCopy(input, { 'tls.crt': 'Y2VydA==', 'tls.key': 'a2V5', 'ca.crt': 'Y2E=', 'extra': 'eA==' });
    assert.deepEqual(copy['data'], { 'tls.crt': 'Y2VydA==', 'tls.key': 'a2V5', 'ca.crt': 'Y2E=' });
    assert.equal((copy['metadata'] as { name: string }).name, backupJobName(backup));
  });

  it('When the key prefix ends with slashes, the object key should have one, and the unix time of the start', () => {
    assert.equal(snapshotKey('demo//', new Date('2026-11-27T09:00:00.900Z')), 'demo/1795770000.db');
  });
});
