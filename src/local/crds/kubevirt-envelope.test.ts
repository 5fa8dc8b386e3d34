import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { kubevirtCrd } from './kubevirt-envelope.ts';

describe('kubevirtCrd', () => {
  it('When wrapping the VirtualMachine schema, it should serve v1 (stored) and deprecated v1alpha3 with a status subresource', () => {
    const crd = kubevirtCrd('virtualmachine', 'openAPIV3Schema:\n  type: object\n') as { metadata: { name: string }; spec: any };
    assert.equal(crd.metadata.name, 'virtualmachines.kubevirt.io');
    assert.deepEqual(crd.spec.names.shortNames, ['vm', 'vms']);
    assert.deepEqual(crd.spec.versions.map((v: any) => [v.name, v.storage, v.deprecated === true]), [['v1', true, false], ['v1alpha3', false, true]]);
    assert.deepEqual(crd.spec.versions[0].subresources, { status: {} });
    assert.deepEqual(crd.spec.versions[0].schema, { openAPIV3Schema: { type: 'object' } });
  });

  it('When wrapping the VirtualMachineInstance schema, it should have no status subresource, as virt-operator installs it', () => {
    const crd = kubevirtCrd('virtualmachineinstance', 'openAPIV3Schema:\n  type: object\n') as { spec: any };
    assert.equal(crd.spec.versions[0].subresources, undefined);
    assert.ok(crd.spec.versions[0].additionalPrinterColumns.some((c: any) => c.name === 'Phase'));
  });
});
