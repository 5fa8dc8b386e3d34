/** `host:port`, with an IPv6 host in brackets (Go's `net.JoinHostPort`). */
export const joinHostPort = (host: string, port: number): string => `${host.includes(':') ? `[${host}]` : host}:${String(port)}`;
