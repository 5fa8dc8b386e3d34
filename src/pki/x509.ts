// @peculiar/x509 resolves its ASN.1 helpers through tsyringe, which needs the Reflect metadata API at import time.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { webcrypto } from 'node:crypto';

x509.cryptoProvider.set(webcrypto);

export { x509 };

/** The key algorithm of every key this project issues: ECDSA P-256 (fast to generate, accepted by Kubernetes). */
export const KEY_ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
