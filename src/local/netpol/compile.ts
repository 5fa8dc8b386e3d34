/**
 * The NetworkPolicy stand-in's compiler (pure): NetworkPolicies, the cluster's pods and namespaces → the filter-table
 * rules of one node, as `iptables-restore --noflush` input. IPv4 only: the local clusters have no IPv6, so IPv6 peers
 * (`::/0`) can match nothing and are left out. A policy it cannot honour (a named port, a malformed CIDR, an unknown
 * protocol or selector operator) is refused whole — enforcing part of it would be a different policy.
 *
 * Shape of the rules: FORWARD jumps to `HCP-NETPOL`, which lets replies through, then sends what an egress-isolated
 * local pod sends to that pod's egress chain and what an ingress-isolated local pod receives to its ingress chain.
 * A pod chain clears a mark bit, sets it for every allowed peer and port, and drops what is still unmarked; so a packet
 * passes only when the sender's egress and the receiver's ingress both allow it.
 */
import { sha256Hex } from '../../lib/hash.ts';
import { matchesSelector, type LabelSelector } from '../../lib/selector.ts';

/** The chain FORWARD jumps to. */
export const NETPOL_CHAIN = 'HCP-NETPOL';
/** Every other chain of the stand-in starts with this (how stale ones are found). */
export const CHAIN_PREFIX = 'HCP-NP-';
/** The mark bit meaning "allowed so far" (kube-proxy uses 0x4000 and 0x8000). */
const ALLOWED = '0x20000/0x20000';

/** One peer of a rule. */
export interface PolicyPeer {
  readonly ipBlock?: { readonly cidr: string; readonly except?: readonly string[] };
  readonly podSelector?: LabelSelector;
  readonly namespaceSelector?: LabelSelector;
}

/** One port of a rule. */
export interface PolicyPort {
  readonly protocol?: string;
  readonly port?: number | string;
  readonly endPort?: number;
}

/** One ingress (`from`) or egress (`to`) rule. */
export interface PolicyRule {
  readonly from?: readonly PolicyPeer[];
  readonly to?: readonly PolicyPeer[];
  readonly ports?: readonly PolicyPort[];
}

/** A NetworkPolicy, as far as the compiler reads it. */
export interface NetworkPolicyObject {
  readonly metadata: { readonly namespace: string; readonly name: string };
  readonly spec: { readonly podSelector: LabelSelector; readonly policyTypes?: readonly string[]; readonly ingress?: readonly PolicyRule[]; readonly egress?: readonly PolicyRule[] };
}

/** A pod: where it is, its labels, its address (none yet: it matches nothing). */
export interface PolicyPod {
  readonly namespace: string;
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly ip: string | undefined;
}

/** A namespace and its labels. */
export interface PolicyNamespace {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
}

/** What one node's rules are compiled from. */
export interface CompileInput {
  readonly policies: readonly NetworkPolicyObject[];
  /** Every pod of the cluster (peers are resolved among them). */
  readonly pods: readonly PolicyPod[];
  readonly namespaces: readonly PolicyNamespace[];
  /** The pods running on the node (the ones its rules police). */
  readonly localPods: readonly PolicyPod[];
}

/** A policy the stand-in does not enforce, and why. */
export interface RefusedPolicy {
  readonly policy: string;
  readonly reason: string;
}

type Direction = 'Ingress' | 'Egress';

const V4_CIDR = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/;
const isV6 = (cidr: string): boolean => cidr.includes(':');
const validV4 = (cidr: string): boolean => {
  const parts = V4_CIDR.exec(cidr)?.slice(1).map(Number);
  return parts !== undefined && parts.slice(0, 4).every((p) => p <= 255) && (parts[4] ?? 99) <= 32;
};
const PROTOCOLS = new Set(['TCP', 'UDP', 'SCTP']);
const policyName = (p: NetworkPolicyObject): string => `${p.metadata.namespace}/${p.metadata.name}`;

const peersOf = (rule: PolicyRule, direction: Direction): readonly PolicyPeer[] => (direction === 'Egress' ? rule.to : rule.from) ?? [];
const rulesOf = (p: NetworkPolicyObject, direction: Direction): readonly PolicyRule[] => (direction === 'Egress' ? p.spec.egress : p.spec.ingress) ?? [];
const typesOf = (p: NetworkPolicyObject): readonly string[] => p.spec.policyTypes ?? ['Ingress', ...(p.spec.egress === undefined ? [] : ['Egress'])];

/** The selectors of a policy, which must all be valid for it to be honoured. */
const selectorsOf = (p: NetworkPolicyObject): LabelSelector[] =>
  [p.spec.podSelector, ...(['Ingress', 'Egress'] as const).flatMap((d) => rulesOf(p, d).flatMap((r) => peersOf(r, d).flatMap((peer) => [peer.podSelector ?? {}, peer.namespaceSelector ?? {}])))];

const isPortNumber = (n: number | undefined): boolean => n !== undefined && Number.isInteger(n) && n >= 1 && n <= 65535;
/** Whether a port's number and end are numbers iptables takes (an end needs a start at or below it). */
function validPorts(port: PolicyPort): boolean {
  const start = port.port as number | undefined;
  if (start === undefined) return port.endPort === undefined;
  return isPortNumber(start) && (port.endPort === undefined || (isPortNumber(port.endPort) && port.endPort >= start));
}

/** Why a port cannot be honoured, or undefined when it can. */
function portRefusal(port: PolicyPort): string | undefined {
  if (typeof port.port === 'string') return `named port ${port.port}: the stand-in does not resolve container port names`;
  // One bad number would make iptables-restore refuse the node's whole file, taking every policy with it.
  if (!validPorts(port)) return `port ${String(port.port)}${port.endPort === undefined ? '' : `-${String(port.endPort)}`} is not a port or range within 1-65535`;
  return PROTOCOLS.has(port.protocol ?? 'TCP') ? undefined : `protocol ${port.protocol ?? ''} is not TCP, UDP or SCTP`;
}

/** Why a policy cannot be honoured, or undefined when it can. */
function refusal(p: NetworkPolicyObject): string | undefined {
  const rules = (['Ingress', 'Egress'] as const).flatMap((d) => rulesOf(p, d).map((r) => ({ r, d })));
  const badPort = rules.flatMap(({ r }) => r.ports ?? []).map(portRefusal).find((reason) => reason !== undefined);
  if (badPort !== undefined) return badPort;
  const cidrs = rules.flatMap(({ r, d }) => peersOf(r, d).flatMap((peer) => (peer.ipBlock === undefined ? [] : [peer.ipBlock.cidr, ...(peer.ipBlock.except ?? [])])));
  const bad = cidrs.find((c) => !isV6(c) && !validV4(c));
  if (bad !== undefined) return `${bad} is not an IPv4 CIDR`;
  try {
    for (const selector of selectorsOf(p)) matchesSelector(selector, {});
  } catch (error) {
    return (error as Error).message;
  }
  return undefined;
}

/** The port matches of a rule: none given allows every port and protocol. */
function portMatches(rule: PolicyRule): string[] {
  if ((rule.ports ?? []).length === 0) return [''];
  return (rule.ports ?? []).map((port) => {
    const protocol = (port.protocol ?? 'TCP').toLowerCase();
    if (port.port === undefined) return `-p ${protocol}`;
    const range = port.endPort === undefined ? String(port.port) : `${String(port.port)}:${String(port.endPort)}`;
    return `-p ${protocol} -m ${protocol} --dport ${range}`;
  });
}

/** The namespaces a peer's namespace selector picks, by name (every namespace has its name as a label). */
function selectedNamespaces(selector: LabelSelector, namespaces: readonly PolicyNamespace[]): Set<string> {
  const withName = namespaces.map((n) => ({ name: n.name, labels: { 'kubernetes.io/metadata.name': n.name, ...n.labels } }));
  return new Set(withName.filter((n) => matchesSelector(selector, n.labels)).map((n) => n.name));
}

/** The addresses of the pods a pod peer selects (in the policy's namespace, unless a namespace selector is given). */
function peerPodAddresses(peer: PolicyPeer, policyNamespace: string, input: CompileInput): string[] {
  const inNamespace = peer.namespaceSelector === undefined ? (ns: string) => ns === policyNamespace : ((set) => (ns: string) => set.has(ns))(selectedNamespaces(peer.namespaceSelector, input.namespaces));
  const pods = input.pods.filter((pod) => pod.ip !== undefined && inNamespace(pod.namespace) && matchesSelector(peer.podSelector ?? {}, pod.labels));
  return [...new Set(pods.map((pod) => `${pod.ip ?? ''}/32`))].sort();
}

/** The lines of one pod chain and the sub-chains (CIDRs with exceptions) it jumps to. */
interface Chains {
  readonly lines: string[];
  readonly subChains: Map<string, string[]>;
}

/**
 * The lines leaving a CIDR's exception to other peers. For egress the address the pod asked for counts too (before
 * kube-proxy translated a Service address), as on OVN-Kubernetes where policies see traffic before load balancing:
 * an excepted Service range then keeps the pod from the cluster's Services, which is what such a policy intends.
 */
function exceptLines(chain: string, direction: Direction, cidr: string): string[] {
  if (direction === 'Ingress') return [`-A ${chain} -s ${cidr} -j RETURN`];
  return [`-A ${chain} -d ${cidr} -j RETURN`, `-A ${chain} -m conntrack --ctorigdst ${cidr} -j RETURN`];
}

/** Adds the rules allowing one rule of `policy` to `chain`. */
function addRule(chain: string, rule: PolicyRule, context: { policy: NetworkPolicyObject; direction: Direction; input: CompileInput; out: Chains }): void {
  const { policy, direction, input, out } = context;
  const side = direction === 'Egress' ? '-d' : '-s';
  const mark = `-m comment --comment "${policyName(policy)}" -j MARK --set-xmark ${ALLOWED}`;
  const ports = portMatches(rule);
  const allow = (address: string): string[] => ports.map((port) => [address, port, mark].filter((part) => part !== '').join(' '));
  const peers = peersOf(rule, direction);
  if (peers.length === 0) out.lines.push(...allow('').map((l) => `-A ${chain} ${l}`));
  for (const peer of peers) {
    const block = peer.ipBlock;
    if (block === undefined) for (const address of peerPodAddresses(peer, policy.metadata.namespace, input)) out.lines.push(...allow(`${side} ${address}`).map((l) => `-A ${chain} ${l}`));
    else if (isV6(block.cidr)) continue;
    else if ((block.except ?? []).length === 0) out.lines.push(...allow(`${side} ${block.cidr}`).map((l) => `-A ${chain} ${l}`));
    else {
      const sub = `${CHAIN_PREFIX}B-${sha256Hex(JSON.stringify([direction, block, ports, policyName(policy)])).slice(0, 10)}`;
      out.subChains.set(sub, [...(block.except ?? []).filter((c) => !isV6(c)).flatMap((c) => exceptLines(sub, direction, c)), ...allow(`${side} ${block.cidr}`).map((l) => `-A ${sub} ${l}`)]);
      out.lines.push(`-A ${chain} -j ${sub}`);
    }
  }
}

/** The chain policing one pod in one direction under the policies selecting it. */
function podChain(pod: PolicyPod, direction: Direction, policies: readonly NetworkPolicyObject[], input: CompileInput): Chains & { name: string } {
  const name = `${CHAIN_PREFIX}${direction === 'Egress' ? 'E' : 'I'}-${sha256Hex(`${pod.namespace}/${pod.name}`).slice(0, 10)}`;
  const out: Chains = { lines: [`-A ${name} -j MARK --set-xmark 0x0/${ALLOWED.split('/')[1] ?? ''}`], subChains: new Map() };
  for (const policy of policies) for (const rule of rulesOf(policy, direction)) addRule(name, rule, { policy, direction, input, out });
  out.lines.push(`-A ${name} -m mark --mark ${ALLOWED} -j RETURN`, `-A ${name} -j DROP`);
  return { name, ...out };
}

/** Compiles one node's rules; see the module's description. */
export function compileNetworkPolicies(input: CompileInput): { rules: string; refused: RefusedPolicy[] } {
  const refused = input.policies.flatMap((p) => ((reason) => (reason === undefined ? [] : [{ policy: policyName(p), reason }]))(refusal(p)));
  const honoured = input.policies.filter((p) => !refused.some((r) => r.policy === policyName(p)));
  const top = [`-A ${NETPOL_CHAIN} -m conntrack --ctstate RELATED,ESTABLISHED -j RETURN`];
  const chains = new Map<string, string[]>();
  const local = [...input.localPods].filter((pod) => pod.ip !== undefined).sort((a, b) => `${a.namespace}/${a.name}`.localeCompare(`${b.namespace}/${b.name}`));
  for (const pod of local) {
    for (const direction of ['Egress', 'Ingress'] as const) {
      const selecting = honoured.filter((p) => p.metadata.namespace === pod.namespace && typesOf(p).includes(direction) && matchesSelector(p.spec.podSelector, pod.labels));
      if (selecting.length === 0) continue;
      const chain = podChain(pod, direction, selecting, input);
      chains.set(chain.name, chain.lines);
      for (const [sub, lines] of chain.subChains) chains.set(sub, lines);
      top.push(`-A ${NETPOL_CHAIN} ${direction === 'Egress' ? '-s' : '-d'} ${pod.ip ?? ''}/32 -j ${chain.name}`);
    }
  }
  top.push(`-A ${NETPOL_CHAIN} -j MARK --set-xmark 0x0/${ALLOWED.split('/')[1] ?? ''}`);
  const names = [NETPOL_CHAIN, ...chains.keys()];
  const rules = ['*filter', ...names.map((n) => `:${n} - [0:0]`), ...top, ...[...chains.values()].flat(), 'COMMIT', ''].join('\n');
  return { rules, refused };
}

/** The stand-in's chains in `existing` that `rules` no longer declares (left behind by `--noflush`). */
export function staleChains(existing: readonly string[], rules: string): string[] {
  const declared = new Set(rules.split('\n').filter((l) => l.startsWith(':')).map((l) => l.slice(1).split(' ')[0]));
  return existing.filter((c) => c.startsWith(CHAIN_PREFIX) && !declared.has(c));
}
