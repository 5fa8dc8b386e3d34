// Writes the CRD manifests (also the Helm chart's) and TypeScript types generated from the API definitions (`npm run generate`).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { generatedApiFiles, generatedChartFiles } from '../src/api/generate.ts';

const root = join(import.meta.dirname, '..');
for (const file of [...generatedApiFiles(), ...generatedChartFiles()]) {
  const target = join(root, file.path);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, file.content);
  process.stdout.write(`wrote ${file.path}\n`);
}
