import type { DNSSpec } from './zz_generated.types.ts';

/**
 * The domain a cluster's endpoints are published under: `<name>.<base domain>`, or `<prefix>.<base domain>` with
 * `baseDomainPrefix` (an empty prefix publishes under the base domain itself). Undefined while the base domain is
 * unknown (a passthrough cluster before discovery).
 */
export function clusterDomainOf(name: string, dns: DNSSpec | undefined): string | undefined {
  const base = dns?.baseDomain ?? '';
  if (base === '') return undefined;
  const prefix = dns?.baseDomainPrefix ?? name;
  return prefix === '' ? base : `${prefix}.${base}`;
}

/** The cluster's apps domain, `apps.<cluster domain>` (upstream's default IngressController domain). */
export function appsDomainOf(name: string, dns: DNSSpec | undefined): string | undefined {
  const cluster = clusterDomainOf(name, dns);
  return cluster === undefined ? undefined : `apps.${cluster}`;
}
