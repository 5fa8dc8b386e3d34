import { x509 } from './x509.ts';

/** What a certificate signing request asks for: its subject and the names it wants to serve. */
export interface CertificateRequestNames {
  readonly commonName: string;
  readonly organizations: readonly string[];
  readonly dnsNames: readonly string[];
  readonly ipAddresses: readonly string[];
  /** Other kinds of name (e-mail, URI): a kubelet asks for none, so any is a reason to refuse. */
  readonly otherNames: readonly string[];
}

/** The subject and alternative names of a PEM PKCS#10 request; throws when it does not parse. */
export function parseCertificateRequest(pem: string): CertificateRequestNames {
  const request = new x509.Pkcs10CertificateRequest(pem);
  const names = request.extensions.filter((e): e is x509.SubjectAlternativeNameExtension => e instanceof x509.SubjectAlternativeNameExtension).flatMap((e) => e.names.items);
  return {
    commonName: request.subjectName.getField('CN').join(','),
    organizations: request.subjectName.getField('O'),
    dnsNames: names.filter((n) => n.type === 'dns').map((n) => n.value),
    ipAddresses: names.filter((n) => n.type === 'ip').map((n) => n.value),
    otherNames: names.filter((n) => n.type !== 'dns' && n.type !== 'ip').map((n) => `${n.type}:${n.value}`),
  };
}
