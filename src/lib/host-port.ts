/** `host:port`, with an IPv6 host in brackets (Go's `net.JoinHostPort`). */
export const joinHostPort = (host: string, port: number): string => `${host.includes(':') ? `[${host}]` : host}:${String(port)}`;

/** 4 or 6 for an IP address of that family (as Kubernetes reports them: dotted quad, or with colons), 0 for a host name. */
export const ipFamilyOf = (host: string): 0 | 4 | 6 => (host.includes(':') ? 6 : /^\d{1,3}(?:\.\d{1,3}){3}$/.test(host) ? 4 : 0);
