import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { tenantClusterRole, tenantRoleBinding } from './tenant-rbac.ts';

/** The YAML block of docs/install.md that starts with the `tenant-access` comment. */
function documentedTenantAccess(): unknown[] {
  const page = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'install.md'), 'utf8');
  const block = /```yaml\n# tenant-access:[^\n]*\n([\s\S]*?)```/.exec(page)?.[1];
  assert.ok(block !== undefined, 'docs/install.md shows the tenant-access YAML');
  return parseAllDocuments(block).map((d) => d.toJS() as unknown);
}

describe('tenant access', () => {
  it('When docs/install.md tells an admin what to grant a tenant, it should be exactly the ClusterRole and RoleBinding the tests grant', () => {
    const [role, binding] = documentedTenantAccess();
    assert.deepEqual(role, tenantClusterRole());
    assert.deepEqual(binding, tenantRoleBinding('team-a', { kind: 'User', name: 'alice' }));
  });
});
