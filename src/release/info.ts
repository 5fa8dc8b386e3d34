/** What a release image holds, as the operator knows it: its version and the images of its components. */

/** The images of the control-plane components one release runs. */
export interface ComponentImages {
  readonly etcd: string;
  readonly kubeAPIServer: string;
  readonly kubeControllerManager: string;
  readonly kubeScheduler: string;
  /** The konnectivity server, a sidecar of kube-apiserver. */
  readonly konnectivityServer: string;
  /** The pod sandbox image the release's nodes run (the ignition endpoint writes it into containerd's settings). */
  readonly pause: string;
  /** The konnectivity agent the hosted cluster's nodes run (the server's partner). */
  readonly konnectivityAgent: string;
  /** The hosted cluster's DNS and service proxy. */
  readonly coreDNS: string;
  readonly kubeProxy: string;
  /**
   * The KubeVirt cloud provider (guest LoadBalancer Services and node addresses from the infrastructure cluster);
   * absent from releases that do not carry it, whose clusters then run without it.
   */
  readonly kubevirtCloudControllerManager?: string;
  /** The KubeVirt CSI driver and the sidecars it runs with; absent from releases that do not carry them. */
  readonly kubevirtCSI?: KubevirtCSIImages;
  /**
   * The pod network the operator deploys into the release's hosted clusters (flannel), both images or none; absent
   * from releases that do not carry it, whose clusters get no network plugin from the operator.
   */
  readonly networkPlugin?: NetworkPluginImages;
  /**
   * The hosted clusters' default ingress controller (Traefik, serving standard `Ingress` objects behind
   * `openshift-ingress/router-nodeport-default`); absent from releases that do not carry it, whose clusters then have
   * no default ingress from the operator.
   */
  readonly ingressController?: string;
  /**
   * An image holding `/usr/bin/kubelet`: what an InPlace upgrade's node agent pulls and installs on each machine.
   * Kubernetes publishes no kubelet image, so the catalog's name is this project's own; absent from releases whose
   * nodes bring their kubelet (OpenShift's RHCOS).
   */
  readonly kubelet?: string;
}

/** The hosted clusters' network plugin: flannel's daemon and the CNI plugins its pods install on every node. */
export interface NetworkPluginImages {
  /** flanneld (VXLAN between the nodes, each node's pod range from its Node's `podCIDR`), with iptables. */
  readonly flannel: string;
  /** The CNI plugins (flannel's, bridge, host-local, portmap, loopback) and their installer. */
  readonly cniPlugins: string;
}

/** The KubeVirt CSI driver (controller on the control plane, node plugin in the hosted cluster) and its sidecars. */
export interface KubevirtCSIImages {
  readonly driver: string;
  readonly sidecars: CSISidecarImages;
}

/** The Kubernetes CSI sidecars (kubernetes-csi), one image each. */
export interface CSISidecarImages {
  readonly provisioner: string;
  readonly attacher: string;
  readonly snapshotter: string;
  readonly resizer: string;
  readonly livenessProbe: string;
  readonly nodeDriverRegistrar: string;
}

/** What the operator knows about a release image. */
export interface ReleaseInfo {
  /** The OpenShift version, e.g. `4.17.0`. */
  readonly version: string;
  /**
   * The Kubernetes version its control plane runs, when known: the catalog's own, or a payload's
   * `io.openshift.build.versions: kubernetes=…` annotation.
   */
  readonly kubernetesVersion?: string;
  readonly images: ComponentImages;
  /**
   * The release's CoreOS boot images by architecture name (`x86_64`, `s390x`), from its CoreOS stream metadata;
   * absent when the provider cannot read that metadata.
   */
  readonly coreOS?: Readonly<Record<string, CoreOSBootImages>>;
  /** The operator image a published release lists (tag `hcp-operator`, see `hcp release build`); absent from others. */
  readonly operatorImage?: string;
  /**
   * Where this was read, for conditions: the payload's digest and the reference it was pulled through, or the
   * catalog and why the payload was not read. Absent for the catalog's own answers.
   */
  readonly source?: string;
  /** Set when the catalog stood in for a registry that did not answer: resolve again later. */
  readonly provisional?: true;
}

/** The boot images of one architecture in a release's CoreOS stream metadata. */
export interface CoreOSBootImages {
  /** The KubeVirt container disk image, by digest (`…@sha256:…`). */
  readonly kubevirtDigestRef?: string;
  /** The OpenStack qcow2 disk, offered only to NodePools that allow unsupported RHCOS variants. */
  readonly openstackQcow2?: { readonly location: string; readonly sha256: string };
}
