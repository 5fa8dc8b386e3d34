import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { nodePoolWithKubevirt } from './builders.ts';
import { CONFORMANCE_DIR } from './paths.ts';

/** A HostedCluster or NodePool from the upstream `hcp` fixtures, with the file it came from. */
export interface ConformanceObject {
  readonly file: string;
  readonly object: Record<string, unknown> & { kind: string; metadata: { name: string; namespace?: string } };
}

/** Every HostedCluster/NodePool of the upstream fixtures; bare `spec.platform.kubevirt` files are wrapped in a NodePool. */
export function conformanceObjects(): ConformanceObject[] {
  const files = readdirSync(CONFORMANCE_DIR).filter((f) => f.endsWith('.yaml'));
  return files.flatMap((file) =>
    parseAllDocuments(readFileSync(join(CONFORMANCE_DIR, file), 'utf8'))
      .map((doc) => doc.toJS() as Record<string, unknown> | null)
      .filter((o): o is Record<string, unknown> => o !== null)
      .map((o) => (o['kind'] === undefined ? (nodePoolWithKubevirt(o) as unknown as Record<string, unknown>) : o))
      .filter((o) => o['kind'] === 'HostedCluster' || o['kind'] === 'NodePool')
      .map((object) => ({ file, object: object as ConformanceObject['object'] })),
  );
}
