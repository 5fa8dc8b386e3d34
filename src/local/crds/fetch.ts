import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { KubeDocument } from '../../kube/client.ts';
import { toYamlDocuments } from '../../lib/yaml.ts';
import { requireGo, runGo } from '../binaries/go.ts';
import { cacheRoot } from '../binaries/locate.ts';
import { goMapEntry } from './go-strings.ts';
import { kubevirtCrd } from './kubevirt-envelope.ts';
import type { CrdSource } from './sources.ts';

/** A CustomResourceDefinition as plain data. */
export type CrdObject = KubeDocument;

/** Downloads a module through the Go module proxy (only its own zip, not its dependencies) and returns its folder. */
async function moduleDir(source: CrdSource): Promise<string> {
  const work = mkdtempSync(join(tmpdir(), 'hcp-crds-'));
  try {
    writeFileSync(join(work, 'go.mod'), 'module local/hcp-crd-download\n');
    const out = await runGo(['mod', 'download', '-json', `${source.module}@${source.version}`], { cwd: work });
    return (JSON.parse(out) as { Dir: string }).Dir;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const yamlObjects = (text: string, all = false): CrdObject[] =>
  parseAllDocuments(text)
    .map((d) => d.toJS() as CrdObject | null)
    .filter((o): o is CrdObject => o !== null && (all || o['kind'] === 'CustomResourceDefinition'));

/** Extracts the CRDs of one source from its module folder. Pure apart from reading the files. */
export function extractCrds(source: CrdSource, dir: string): CrdObject[] {
  const fromFiles = (source.files ?? []).flatMap((f) => yamlObjects(readFileSync(join(dir, f), 'utf8'), source.allObjects));
  const goMap = source.goCrdMap;
  const goMapFile = goMap === undefined ? '' : readFileSync(join(dir, goMap.file), 'utf8');
  const fromGoMap = goMap === undefined ? [] : goMap.entries.flatMap((e) => yamlObjects(goMapEntry(goMapFile, e)));
  const kv = source.kubevirtSchemas;
  // The generated validations file is several MB: read once, not once per kind.
  const kvFile = kv === undefined ? '' : readFileSync(join(dir, kv.file), 'utf8');
  const fromKubevirt = kv === undefined ? [] : kv.entries.map((e) => kubevirtCrd(e, goMapEntry(kvFile, e)) as CrdObject);
  return [...fromFiles, ...fromGoMap, ...fromKubevirt].map(stripStatus);
}

/** Generated CRD files sometimes carry an empty `status` and `creationTimestamp: null`; the server does not want them. */
function stripStatus(crd: CrdObject): CrdObject {
  const rest = { ...crd };
  delete rest['status'];
  const metadata = { ...(rest['metadata'] as Record<string, unknown>) };
  delete metadata['creationTimestamp'];
  return { ...rest, metadata };
}

/** The cache file of a source's CRDs, keyed by module version. */
export function crdCacheFile(source: CrdSource, env: NodeJS.ProcessEnv = process.env): string {
  return join(cacheRoot(env), 'crds', `${source.id}@${source.version}.yaml`);
}

/**
 * The CRDs of a source: from the cache when present, otherwise fetched through the Go module proxy, extracted and
 * cached (with the module's LICENSE beside them). Never committed to the repository.
 */
export async function loadCrds(source: CrdSource): Promise<CrdObject[]> {
  const file = crdCacheFile(source);
  if (!existsSync(file)) {
    requireGo();
    const dir = await moduleDir(source);
    mkdirSync(join(file, '..'), { recursive: true });
    const license = join(dir, 'LICENSE');
    if (existsSync(license)) writeFileSync(file.replace(/\.yaml$/, '.LICENSE'), readFileSync(license));
    const partial = `${file}.partial-${process.pid}`;
    writeFileSync(partial, toYamlDocuments(extractCrds(source, dir)));
    renameSync(partial, file);
  }
  return yamlObjects(readFileSync(file, 'utf8'), source.allObjects);
}
