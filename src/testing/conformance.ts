import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { nodePoolWithKubevirt } from './builders.ts';
import { CONFORMANCE_DIR, REPO_ROOT, skipUnlessShared } from './paths.ts';

/** A HostedCluster or NodePool of a {@link ConformanceSource}, with the file it came from. */
export interface ConformanceObject {
  readonly file: string;
  readonly object: Record<string, unknown> & { kind: string; metadata: { name: string; namespace?: string } };
}

/** Golden files of our `hcp create cluster kubevirt --render` for the arguments of upstream's fixtures. */
export const OUR_CLUSTER_RENDERS = join(REPO_ROOT, 'src', 'cli', 'commands', 'create', 'cluster', 'testdata');

/** Golden files of our NodePool platform (`spec.platform.kubevirt`) for the arguments of upstream's fixtures. */
export const OUR_NODEPOOL_PLATFORMS = join(REPO_ROOT, 'src', 'cli', 'options', 'testdata');

/** A set of `hcp` renders whose HostedCluster/NodePool objects the API must accept. */
export interface ConformanceSource {
  /** What the objects are, for test names. */
  readonly title: string;
  /** The `skip` option of tests over them: a reason when their files are absent, else false. */
  readonly skip: string | false;
  /** Every HostedCluster/NodePool of the files; bare `spec.platform.kubevirt` files are wrapped in a NodePool. */
  objects(): ConformanceObject[];
}

/** Our renders of upstream's fixture arguments: committed golden files, so a clone alone runs every test over them. */
export const OUR_RENDERS: ConformanceSource = {
  title: 'our hcp renders of the upstream fixture arguments',
  skip: false,
  objects: () => [OUR_CLUSTER_RENDERS, OUR_NODEPOOL_PLATFORMS].flatMap(objectsIn),
};

/** Upstream's own `hcp` fixtures, read from {@link CONFORMANCE_DIR} when it is there (never copied into the repository). */
export const UPSTREAM_FIXTURES: ConformanceSource = {
  title: 'the upstream hcp fixtures',
  skip: skipUnlessShared('conformance', 'hypershift-cli'),
  objects: () => objectsIn(CONFORMANCE_DIR),
};

/** Both sources, ours first. */
export const CONFORMANCE_SOURCES: readonly ConformanceSource[] = [OUR_RENDERS, UPSTREAM_FIXTURES];

function objectsIn(dir: string): ConformanceObject[] {
  const files = readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort();
  return files.flatMap((file) =>
    parseAllDocuments(readFileSync(join(dir, file), 'utf8'))
      .map((doc) => doc.toJS() as Record<string, unknown> | null)
      .filter((o): o is Record<string, unknown> => o !== null)
      .map((o) => (o['kind'] === undefined ? (nodePoolWithKubevirt(o) as unknown as Record<string, unknown>) : o))
      .filter((o) => o['kind'] === 'HostedCluster' || o['kind'] === 'NodePool')
      .map((object) => ({ file, object: object as ConformanceObject['object'] })),
  );
}
