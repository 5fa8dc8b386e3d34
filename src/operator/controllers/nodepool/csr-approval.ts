import type { CertificateRequestNames } from '../../../pki/csr.ts';

/** The signers whose requests the approver judges; every other signer is left to whoever serves it. */
export const KUBELET_CLIENT_SIGNER = 'kubernetes.io/kube-apiserver-client-kubelet';
export const KUBELET_SERVING_SIGNER = 'kubernetes.io/kubelet-serving';

/** A certificate signing request as the approver reads it. */
export interface KubeletRequest {
  readonly name: string;
  readonly signerName: string;
  /** Who created it (the API server fills this in: it cannot be chosen by the requester). */
  readonly username: string;
  readonly usages: readonly string[];
  /** The parsed request, or why it did not parse. */
  readonly request: CertificateRequestNames | { readonly error: string };
}

/** A machine of a live NodePool of the cluster: its VM's name and the addresses its instance reports. */
export interface KnownMachine {
  readonly pool: string;
  readonly addresses: readonly string[];
}

/** What the approver knows about the cluster when it judges. */
export interface ApprovalFacts {
  /** Bootstrap token id → the live NodePool (`namespace/name`) it was issued for; expired and deleted pools' are absent. */
  readonly bootstrapTokens: ReadonlyMap<string, string>;
  /** VM name → machine, for VMs of live NodePools that are not being deleted. */
  readonly machines: ReadonlyMap<string, KnownMachine>;
  /** Whether a Node of that name is registered. */
  readonly nodeExists: (name: string) => boolean;
}

/** The verdict: approve, or leave pending and say why (the approver never denies: a human may still approve). */
export type Verdict = { readonly approve: true; readonly reason: string } | { readonly approve: false; readonly reason: string };

const NODE_PREFIX = 'system:node:';
const BOOTSTRAP_PREFIX = 'system:bootstrap:';
const refuse = (reason: string): Verdict => ({ approve: false, reason });
const sameSet = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x) => b.includes(x));

/** The node a kubelet certificate is for: `system:node:<name>` in group `system:nodes`, and nothing else asked for. */
function nodeOf(request: CertificateRequestNames): string | Verdict {
  if (!request.commonName.startsWith(NODE_PREFIX) || request.commonName.length === NODE_PREFIX.length) return refuse(`its subject ${request.commonName} is not system:node:<name>`);
  if (!sameSet(request.organizations, ['system:nodes'])) return refuse(`its organizations ${request.organizations.join(',') || '(none)'} are not exactly system:nodes`);
  if (request.otherNames.length > 0) return refuse(`it asks for names a kubelet does not use: ${request.otherNames.join(', ')}`);
  return request.commonName.slice(NODE_PREFIX.length);
}

/** A client certificate: a bootstrap token of a live pool for a machine of that pool with no Node yet, or a renewal. */
function judgeClient(csr: KubeletRequest, request: CertificateRequestNames, node: string, facts: ApprovalFacts): Verdict {
  if (!sameSet(csr.usages.filter((u) => u !== 'key encipherment'), ['digital signature', 'client auth'])) return refuse(`usages ${csr.usages.join(', ')} are not a kubelet client certificate's`);
  if (request.dnsNames.length + request.ipAddresses.length > 0) return refuse('a client certificate asks for serving names');
  const machine = facts.machines.get(node);
  if (csr.username === `${NODE_PREFIX}${node}`) {
    return machine === undefined ? refuse(`node ${node} is no machine of a live NodePool`) : { approve: true, reason: `renewal for machine ${node} of NodePool ${machine.pool}` };
  }
  if (!csr.username.startsWith(BOOTSTRAP_PREFIX)) return refuse(`${csr.username} is neither a NodePool bootstrap token nor node ${node} itself`);
  const pool = facts.bootstrapTokens.get(csr.username.slice(BOOTSTRAP_PREFIX.length));
  if (pool === undefined) return refuse(`${csr.username} is no current bootstrap token of a live NodePool (expired, rotated out, or its NodePool deleted)`);
  if (machine === undefined || machine.pool !== pool) return refuse(`node ${node} is no machine of NodePool ${pool}`);
  if (facts.nodeExists(node)) return refuse(`node ${node} is registered already: a bootstrap token may not take over its identity`);
  return { approve: true, reason: `machine ${node} of NodePool ${pool} joining with its bootstrap token` };
}

/** The machines of the cluster whose instances report `ip`. */
const claimants = (facts: ApprovalFacts, ip: string): string[] => [...facts.machines].filter(([, m]) => m.addresses.includes(ip)).map(([name]) => name);

/**
 * A serving certificate: asked by the node itself, for its own name and addresses only. An instance's addresses may
 * come from its guest agent, that is from the VM itself: an address two machines report is nobody's.
 */
function judgeServing(csr: KubeletRequest, request: CertificateRequestNames, node: string, facts: ApprovalFacts): Verdict {
  if (!sameSet(csr.usages.filter((u) => u !== 'key encipherment'), ['digital signature', 'server auth'])) return refuse(`usages ${csr.usages.join(', ')} are not a kubelet serving certificate's`);
  if (csr.username !== `${NODE_PREFIX}${node}`) return refuse(`it was requested by ${csr.username}, not by node ${node} itself`);
  const machine = facts.machines.get(node);
  if (machine === undefined) return refuse(`node ${node} is no machine of a live NodePool`);
  if (request.dnsNames.length + request.ipAddresses.length === 0) return refuse('it names no address to serve on');
  const foreignNames = request.dnsNames.filter((name) => name !== node);
  if (foreignNames.length > 0) return refuse(`DNS names ${foreignNames.join(', ')} are not machine ${node}'s`);
  const foreignIPs = request.ipAddresses.filter((ip) => !machine.addresses.includes(ip));
  if (foreignIPs.length > 0) return refuse(`addresses ${foreignIPs.join(', ')} are not among machine ${node}'s (${machine.addresses.join(', ') || 'none reported yet'})`);
  const shared = request.ipAddresses.filter((ip) => claimants(facts, ip).some((other) => other !== node));
  if (shared.length > 0) return refuse(`addresses ${shared.join(', ')} are also reported by another machine of the cluster (${shared.flatMap((ip) => claimants(facts, ip)).filter((m) => m !== node).join(', ')}): no machine gets a certificate for an address another one claims`);
  return { approve: true, reason: `serving certificate of machine ${node} of NodePool ${machine.pool}` };
}

/**
 * Judges a kubelet's certificate request. Client certificates: a NodePool's bootstrap token, for a node name that is
 * one of that pool's machines and not registered yet; or the node renewing its own. Serving certificates: the node
 * itself, for its own name and the addresses its VM instance reports. Anything else stays pending with the reason.
 * Only the two kubelet signers are judged; a request for another signer is undefined (not ours).
 */
export function judgeKubeletRequest(csr: KubeletRequest, facts: ApprovalFacts): Verdict | undefined {
  if (csr.signerName !== KUBELET_CLIENT_SIGNER && csr.signerName !== KUBELET_SERVING_SIGNER) return undefined;
  if ('error' in csr.request) return refuse(`its request does not parse: ${csr.request.error}`);
  const node = nodeOf(csr.request);
  if (typeof node !== 'string') return node;
  return csr.signerName === KUBELET_CLIENT_SIGNER ? judgeClient(csr, csr.request, node, facts) : judgeServing(csr, csr.request, node, facts);
}
