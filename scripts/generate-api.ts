// Writes the CRD manifests (also the Helm chart's), the TypeScript types generated from the API definitions, and the
// node agent's module (`npm run generate`).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { generatedApiFiles, generatedChartFiles } from '../src/api/generate.ts';
import { NODE_AGENT_MODULE, NODE_AGENT_SOURCE, nodeAgentModule } from './node-agent-module.ts';

const root = join(import.meta.dirname, '..');
for (const file of [...generatedApiFiles(), ...generatedChartFiles()]) {
  const target = join(root, file.path);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, file.content);
  process.stdout.write(`wrote ${file.path}\n`);
}

// The node agent's bash source, as a module the pure render layer can import.
const agentSource = readFileSync(join(root, NODE_AGENT_SOURCE), 'utf8');
writeFileSync(join(root, NODE_AGENT_MODULE), nodeAgentModule(agentSource));
process.stdout.write(`wrote ${NODE_AGENT_MODULE}\n`);
