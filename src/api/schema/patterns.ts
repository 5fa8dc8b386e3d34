/** Regular expressions shared by schemas and the offline validator. */

/** The `resource.Quantity` grammar that the API server's CRD validation applies to quantity fields. */
export const QUANTITY_PATTERN =
  '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$';

/** A DNS-1123 label body, used for names such as `clusterName` and `infraID`. */
export const DNS1123_LABEL = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';

/** A DNS-1123 subdomain, the rule the API server applies to custom resource names. */
export const DNS1123_SUBDOMAIN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';

/** A relaxed domain name as HyperShift accepts it for `dns.baseDomain` and friends. */
export const DOMAIN_NAME = '^(?:(?:[a-zA-Z0-9-]+\\.)+[a-zA-Z]{2,}|[a-zA-Z0-9-]+)$';

/** An IPv4 or IPv6 CIDR in the loose form HyperShift's CEL rules accept. */
export const CIDR_RULE =
  "self.matches('^((\\\\d{1,3}\\\\.){3}\\\\d{1,3}/\\\\d{1,2})$') || self.matches('^([0-9a-fA-F]{0,4}:){2,7}([0-9a-fA-F]{0,4})?/[0-9]{1,3}$')";

/** A Go `time.Duration` string such as `30s` or `1h30m`. */
export const DURATION_PATTERN = '^(0|(([0-9]+(\\.[0-9]*)?|\\.[0-9]+)(ns|us|µs|ms|s|m|h))+)$';

/** A label key: an optional DNS-subdomain prefix and `/`, then a name of up to 63 characters (Kubernetes' qualified name). */
export const LABEL_KEY = '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$';

/** A label value: empty, or up to 63 characters beginning and ending with a letter or digit. */
export const LABEL_VALUE = '^(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?$';

/** A pattern written into a CEL string literal, whose backslashes are escapes of their own. */
export const inCelString = (pattern: string): string => pattern.replaceAll('\\', '\\\\');
