// Validates HostedCluster, NodePool and HostedControlPlane manifests offline (`./dev validate FILE...`), with the
// same schema, defaults and CEL rules as the CRDs. Other kinds in the files are listed and skipped.
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { formatViolation, KINDS, validateObject } from '../src/api/index.ts';

const ours = new Set(KINDS.map((k) => k.kind));
let failures = 0;

function describe(obj: Record<string, unknown>): string {
  const meta = (obj['metadata'] ?? {}) as Record<string, unknown>;
  const ns = typeof meta['namespace'] === 'string' ? `${meta['namespace']}/` : '';
  const name = typeof meta['name'] === 'string' ? meta['name'] : '<unnamed>';
  return `${String(obj['kind'])} ${ns}${name}`;
}

function validateFile(file: string): void {
  for (const doc of parseAllDocuments(readFileSync(file, 'utf8'))) {
    if (doc.errors.length > 0) {
      failures++;
      process.stdout.write(`${file}: not valid YAML: ${doc.errors[0]?.message ?? ''}\n`);
      continue;
    }
    const obj: unknown = doc.toJS();
    if (typeof obj !== 'object' || obj === null) continue;
    const record = obj as Record<string, unknown>;
    if (!ours.has(String(record['kind']))) {
      process.stdout.write(`${file}: ${describe(record)}: skipped (not a hypershift.openshift.io kind)\n`);
      continue;
    }
    const { violations } = validateObject(obj);
    failures += violations.length;
    const verdict = violations.length === 0 ? 'valid' : `${violations.length} violation(s)`;
    process.stdout.write(`${file}: ${describe(record)}: ${verdict}\n`);
    for (const v of violations) process.stdout.write(`  ${formatViolation(v)}\n`);
  }
}

const files = process.argv.slice(2);
if (files.length === 0) {
  process.stderr.write('usage: ./dev validate FILE...\n');
  process.exit(2);
}
for (const file of files) {
  try {
    validateFile(file);
  } catch (error) {
    failures++;
    process.stdout.write(`${file}: ${error instanceof Error ? error.message : String(error)}\n`);
  }
}
process.exit(failures === 0 ? 0 : 1);
