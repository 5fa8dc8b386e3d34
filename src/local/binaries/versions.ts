/** The Kubernetes release the test and local clusters run (matches upstream HyperShift's k8s.io pins). */
export const KUBE_VERSION = 'v1.36.3';
/**
 * The minor before {@link KUBE_VERSION}, built on demand: the release the local environment's upgrade tests and bench
 * create clusters on before moving them to the current one.
 */
export const PREVIOUS_KUBE_VERSION = 'v1.35.4';
/** The etcd release paired with {@link KUBE_VERSION} (the one Kubernetes' own test matrix pairs it with). */
export const ETCD_VERSION = 'v3.6.8';

/**
 * The Kubernetes binaries built from k8s.io/kubernetes in one wrapper module: a cluster's control plane and kubectl,
 * and what a node of the local environment runs (kubelet, kube-proxy) with the scheduler that places its pods.
 */
export const KUBE_BINARIES = ['kube-apiserver', 'kube-controller-manager', 'kubectl', 'kube-scheduler', 'kubelet', 'kube-proxy'] as const;
export const ETCD_BINARY = 'etcd';

/** A binary name. */
export type BinaryName = (typeof KUBE_BINARIES)[number] | typeof ETCD_BINARY;
