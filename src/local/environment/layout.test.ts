import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { environmentLayout, hostsRegistry, infraLayout, INFRA_FIRST_SLOT, MAX_NODE_COUNT, nodeLayout } from './layout.ts';
import { FIRST_MACHINE_SLOT } from '../kubevirt/machine-backend.ts';

describe('the infrastructure cluster beside the management cluster', () => {
  const environment = environmentLayout('/state', MAX_NODE_COUNT);
  const infra = infraLayout(environment);

  it('When both clusters run, their nodes and the machines should take distinct addresses and pod ranges on the one bridge', () => {
    const lastMachine = nodeLayout('/state', INFRA_FIRST_SLOT - 1);
    const taken = [...environment.nodes, nodeLayout('/state', FIRST_MACHINE_SLOT), lastMachine, ...infra.nodes];
    assert.equal(new Set(taken.map((n) => n.address)).size, taken.length);
    assert.equal(new Set(taken.map((n) => n.podCidr)).size, taken.length);
    assert.equal(infra.bridge, environment.bridge);
    assert.deepEqual(infra.nodes.map((n) => [n.name, n.address, n.podCidr]), [['hcp-infra-node-1', '10.250.0.242', '10.244.240.0/24']]);
    assert.equal(infra.podCidr, '10.244.240.0/21', 'the infrastructure nodes pod ranges are its cluster range');
  });

  it('When both clusters run, their ports, Service ranges, state and processes should be apart but inside the environment', () => {
    const ports = (l: typeof infra): number[] => [l.ports.etcdClient, l.ports.etcdPeer, l.ports.apiServer, l.ports.controllerManager, l.ports.scheduler];
    assert.equal(new Set([...ports(environment), ...ports(infra)]).size, 10);
    assert.equal(infra.ports.registry, environment.ports.registry, 'it pulls from the environment registry');
    assert.equal(infra.ports.objectStore, environment.ports.objectStore, 'the environment has one object store');
    assert.deepEqual([hostsRegistry(environment), hostsRegistry(infra)], [true, false], 'which it does not run itself');
    assert.notEqual(infra.serviceCidr, environment.serviceCidr);
    assert.equal(infra.stateDir, '/state/infra');
    assert.equal(infra.environmentDir, '/state');
    assert.ok(infra.cgroup.startsWith(`${environment.cgroup}/`), 'down ends it with the environment');
    assert.ok(infra.nodes.every((n) => n.netns.startsWith(environment.netnsPrefix) && n.hostVeth.startsWith(environment.vethPrefix) && n.hostVeth.length <= 15));
  });

  it('When both clusters run, every port on the host address (the object store\'s too) should be distinct', () => {
    // etcd listens on the loopback, everything else on the host's bridge address.
    const onHostAddress = Object.entries(environment.ports).filter(([name]) => !name.startsWith('etcd')).map(([, port]) => port);
    const taken = [...onHostAddress, infra.ports.apiServer, infra.ports.controllerManager, infra.ports.scheduler];
    assert.equal(new Set(taken).size, taken.length);
  });
});
