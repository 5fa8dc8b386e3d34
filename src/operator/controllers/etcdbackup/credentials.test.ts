import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { manualCredentials, scheduledCredentials, type CredentialsSecret, type ScheduledCredentialsInput } from './credentials.ts';
import { OurAnnotation } from '../../../api/v1beta1/well-known.ts';

const secret = (namespace: string, annotations: Record<string, string> = {}, data: Record<string, string> = { credentials: 'W2RlZmF1bHRd' }): CredentialsSecret => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'bucket', namespace, annotations }, data });
const input = (over: Partial<ScheduledCredentialsInput>): ScheduledCredentialsInput => ({ tenant: undefined, operator: undefined, name: 'bucket', hostedCluster: { namespace: 'team-a', name: 'demo' }, keyPrefix: 'team-a/demo', ...over });

describe('etcd backup credentials', () => {
  it('When a backup is made by hand, it should use the Secret of the operator\'s namespace, as upstream', () => {
    assert.equal(manualCredentials(secret('hypershift'), 'hypershift/bucket').kind, 'operator');
    assert.match(JSON.stringify(manualCredentials(undefined, 'hypershift/bucket')), /credentials Secret hypershift\/bucket not found: create it in the operator's namespace/);
  });

  it('When a schedule names a Secret of its HostedCluster\'s namespace, it should use that one (copied for the Job)', () => {
    const tenant = secret('team-a');
    assert.deepEqual(scheduledCredentials(input({ tenant, operator: secret('hypershift') })), { kind: 'tenant', secret: tenant });
  });

  it('When a schedule names a Secret of the operator\'s namespace that is not shared with it, it should not use it, nor say it exists', () => {
    const result = scheduledCredentials(input({ operator: secret('hypershift', { [OurAnnotation.EtcdBackupSharedWith]: 'team-b' }) }));
    assert.equal(result.kind, 'unusable');
    assert.match(JSON.stringify(result), /credentials Secret team-a\/bucket not found: a scheduled backup reads its credentials from the HostedCluster's namespace/);
    assert.doesNotMatch(JSON.stringify(result), /hypershift/);
  });

  it('When a platform admin shares a Secret with the namespace, it should be used, under the HostedCluster\'s own prefix only', () => {
    const shared = secret('hypershift', { [OurAnnotation.EtcdBackupSharedWith]: 'team-b, team-a' });
    assert.equal(scheduledCredentials(input({ operator: shared })).kind, 'shared');
    assert.equal(scheduledCredentials(input({ operator: shared, keyPrefix: 'team-a/demo/nightly' })).kind, 'shared');
    const other = scheduledCredentials(input({ operator: shared, keyPrefix: 'team-b/prod' }));
    assert.deepEqual([other.kind, 'state' in other ? other.state : ''], ['unusable', 'refused']);
    assert.match(JSON.stringify(other), /set keyPrefix to team-a\/demo \(or a path below it\), not team-b\/prod/);
    assert.equal(scheduledCredentials(input({ operator: shared, keyPrefix: 'team-a/demo-2' })).kind, 'unusable', 'a longer name is another cluster\'s prefix');
    // The control-plane namespace's name is no owner: team-a/demo and team/a-demo share team-a-demo.
    assert.equal(scheduledCredentials(input({ operator: shared, keyPrefix: 'team-a-demo' })).kind, 'unusable');
  });

  it('When the Secret has no credentials key, it should say so, naming where', () => {
    assert.match(JSON.stringify(scheduledCredentials(input({ tenant: secret('team-a', {}, { other: 'eA==' }) }))), /team-a\/bucket has no key \\"credentials\\"/);
  });
});
