/** The outcome of one lookup of a cluster's apps domain. */
export interface IngressDNSCheck {
  readonly host: string;
  readonly resolvable: boolean;
  readonly detail: string;
  readonly at: number;
  /** While it does not resolve: the load balancer the manual's step creates in front of the VMs, when there is one. */
  readonly loadBalancer?: IngressLoadBalancer;
}

/** A LoadBalancer Service selecting the cluster's virt-launcher pods, and its external address once it has one. */
export interface IngressLoadBalancer {
  readonly service: string;
  readonly address?: string;
}
