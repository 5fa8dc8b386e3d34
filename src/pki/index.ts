/** Certificates, keys and kubeconfigs. Pure: time, serial numbers and keys are inputs. */
export { certificatePem, issueCertificate, loadIssuer, type CertificateRequest, type CertificateUsage, type IssuedCertificate } from './certificate.ts';
export { generateKeyPair, privateKeyPem, publicKeyPem, type KeyGenerator, type KeyPair } from './keys.ts';
export { renderKubeconfig, type KubeconfigCredentials, type KubeconfigRequest } from './kubeconfig.ts';
