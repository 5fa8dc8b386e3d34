import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderVirtLauncherNetworkPolicy } from '../../platform/kubevirt/network-policy.ts';
import { compileNetworkPolicies, staleChains, type NetworkPolicyObject, type PolicyPod } from './compile.ts';

const LAUNCHER = { 'hypershift.openshift.io/infra-id': 'demo-x', 'kubevirt.io': 'virt-launcher' };
/** The operator's own virt-launcher policy, for an infrastructure cluster with pods in 10.244.240.0/21 and Services in 10.97.0.0/16. */
const launcherPolicy = renderVirtLauncherNetworkPolicy({ namespace: 'hcp-infra', infraID: 'demo-x', blockedCIDRs: ['10.244.240.0/21', '10.97.0.0/16'], controlPlanePeers: false, nodePortAddresses: ['10.250.0.2'] }) as unknown as NetworkPolicyObject;
const pod = (name: string, ip: string, labels: Record<string, string> = LAUNCHER, namespace = 'hcp-infra'): PolicyPod => ({ namespace, name, labels, ip });
const machineA = pod('virt-launcher-a', '10.244.240.3');
const machineB = pod('virt-launcher-b', '10.244.240.4');
const dns = pod('coredns', '10.244.240.2', { 'k8s-app': 'kube-dns' }, 'kube-system');
const namespaces = [{ name: 'hcp-infra', labels: {} }, { name: 'kube-system', labels: {} }];
const compile = (policies: NetworkPolicyObject[], localPods = [machineA, machineB, dns]): ReturnType<typeof compileNetworkPolicies> =>
  compileNetworkPolicies({ policies, pods: [machineA, machineB, dns], namespaces, localPods });
const linesOf = (rules: string, needle: string): string[] => rules.split('\n').filter((l) => l.includes(needle));

describe('the NetworkPolicy stand-in\'s compiler', () => {
  it('When the virt-launcher policy selects machines, it should block the infrastructure ranges except for launcher peers, and allow the rest', () => {
    const { rules, refused } = compile([launcherPolicy]);
    assert.deepEqual(refused, []);
    const except = linesOf(rules, '-j RETURN').filter((l) => l.includes('-d 10.'));
    assert.deepEqual(except.map((l) => l.split(' ').slice(2, 4).join(' ')).sort(), ['-d 10.244.240.0/21', '-d 10.97.0.0/16']);
    assert.equal(linesOf(rules, '--ctorigdst 10.97.0.0/16 -j RETURN').length, 1, 'a Service address asked for is judged before translation');
    assert.ok(linesOf(rules, '-d 0.0.0.0/0').some((l) => l.includes('MARK --set-xmark 0x20000/0x20000')), 'everything else allowed');
    for (const peer of ['10.244.240.3/32', '10.244.240.4/32']) assert.ok(linesOf(rules, `-d ${peer} -m comment`).length === 2, `launcher peer ${peer} allowed from both machines`);
    assert.ok(linesOf(rules, '-d 10.250.0.2/32 -m comment').length === 2, 'the NodePort address allowed');
    assert.equal(linesOf(rules, '::/0').length, 0, 'IPv6 peers left out');
    assert.equal(linesOf(rules, '10.244.240.2/32').length, 0, 'CoreDNS is neither policed nor a peer');
  });

  it('When the policy has ingress ports without numbers, it should allow those protocols from anywhere, and drop the rest', () => {
    const { rules } = compile([launcherPolicy], [machineA]);
    const ingress = rules.split('\n').filter((l) => l.startsWith('-A HCP-NP-I-'));
    assert.deepEqual(ingress.filter((l) => l.includes('--set-xmark 0x20000')).map((l) => l.split(' ').slice(2, 4).join(' ')), ['-p tcp', '-p udp', '-p sctp']);
    assert.match(ingress.at(-1) ?? '', /-j DROP$/);
    assert.ok(rules.includes('-A HCP-NETPOL -d 10.244.240.3/32 -j HCP-NP-I-'));
    assert.ok(rules.includes('-A HCP-NETPOL -s 10.244.240.3/32 -j HCP-NP-E-'));
  });

  it('When a policy names a port, it should refuse the whole policy and police nothing under it', () => {
    const named = { metadata: { namespace: 'hcp-infra', name: 'named' }, spec: { podSelector: {}, ingress: [{ ports: [{ port: 'http' }] }] } };
    const { rules, refused } = compile([named]);
    assert.deepEqual(refused, [{ policy: 'hcp-infra/named', reason: 'named port http: the stand-in does not resolve container port names' }]);
    assert.equal(linesOf(rules, 'HCP-NP-').length, 0);
  });

  it('When a port is out of range or a range is reversed, it should refuse the policy rather than break the node\'s rules', () => {
    const withPorts = (ports: object[]): NetworkPolicyObject => ({ metadata: { namespace: 'hcp-infra', name: 'p' }, spec: { podSelector: {}, ingress: [{ ports }] } });
    for (const ports of [[{ port: 70000 }], [{ port: 90, endPort: 80 }], [{ endPort: 80 }]]) assert.match(compile([withPorts(ports)]).refused[0]?.reason ?? '', /not a port or range within 1-65535/);
    assert.deepEqual(compile([withPorts([{ port: 80, endPort: 90 }])]).refused, []);
  });

  it('When a policy selects by namespace and pod, it should resolve peers to the selected pods only', () => {
    const toDns = { metadata: { namespace: 'hcp-infra', name: 'dns' }, spec: { podSelector: {}, policyTypes: ['Egress'], egress: [{ to: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } }, podSelector: { matchExpressions: [{ key: 'k8s-app', operator: 'In', values: ['kube-dns'] }] } }], ports: [{ protocol: 'UDP', port: 53 }, { port: 8000, endPort: 8080 }] }] } };
    const { rules } = compile([toDns], [machineA]);
    assert.deepEqual(linesOf(rules, 'MARK --set-xmark 0x20000').map((l) => l.replace(/^-A \S+ /, '').replace(/ -m comment.*$/, '')), ['-d 10.244.240.2/32 -p udp -m udp --dport 53', '-d 10.244.240.2/32 -p tcp -m tcp --dport 8000:8080']);
    assert.equal(linesOf(rules, 'HCP-NP-I-').length, 0, 'an egress-only policy leaves ingress alone');
  });

  it('When compiled twice from the same input, it should write the same text, and name the chains it no longer declares', () => {
    const first = compile([launcherPolicy]).rules;
    assert.equal(compile([launcherPolicy]).rules, first);
    const declared = first.split('\n').filter((l) => l.startsWith(':HCP-NP-')).map((l) => l.slice(1).split(' ')[0] ?? '');
    assert.deepEqual(staleChains([...declared, 'HCP-NP-E-0123456789', 'KUBE-FORWARD'], first), ['HCP-NP-E-0123456789']);
    assert.deepEqual(staleChains(declared, compile([]).rules).sort(), [...declared].sort());
  });
});
