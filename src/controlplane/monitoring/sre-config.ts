/**
 * The `sre-metric-set` ConfigMap: under its one key `config`, YAML relabelings per component (the manual's format).
 * Parsed strictly: a misspelt component or field would otherwise keep every series of that component unnoticed.
 */
import { isPlainObject } from '../../lib/objects.ts';
import { parseYaml } from '../../lib/yaml-read.ts';
import type { RelabelConfig, SreMetricsConfig } from './relabel.ts';

/** The ConfigMap's name and key (upstream's). */
export const SRE_METRICS_CONFIGMAP = { name: 'sre-metric-set', key: 'config' } as const;

/** Every component key upstream's configuration has; the ones this product does not run are accepted and unused. */
const COMPONENT_KEYS = new Set([
  'etcd',
  'kubeAPIServer',
  'kubeControllerManager',
  'openshiftAPIServer',
  'openshiftControllerManager',
  'openshiftRouteControllerManager',
  'cvo',
  'olm',
  'catalogOperator',
  'registryOperator',
  'kubeScheduler',
  'kubeSchedulerResourceMetrics',
  'nodeTuningOperator',
  'controlPlaneOperator',
  'hostedClusterConfigOperator',
]);

/** The Prometheus Operator's relabel actions (it takes them in either case). */
const ACTIONS = new Set(['replace', 'keep', 'drop', 'hashmod', 'labelmap', 'labeldrop', 'labelkeep', 'lowercase', 'uppercase', 'keepequal', 'dropequal']);
const STRING_FIELDS = ['action', 'separator', 'targetLabel', 'regex', 'replacement'] as const;
const FIELDS = new Set<string>([...STRING_FIELDS, 'sourceLabels', 'modulus']);

/** A `sre-metric-set` ConfigMap that cannot be used; the message names the place. */
export class SreMetricsConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SreMetricsConfigError';
  }
}

const fail = (detail: string): never => {
  throw new SreMetricsConfigError(`failed to unmarshal metrics set configuration: ${detail}`);
};

function checkRegex(at: string, regex: string): void {
  try {
    // Prometheus anchors the expression; JavaScript's syntax is close enough to RE2's to catch what would not compile.
    new RegExp(`^(?:${regex})$`);
  } catch (error) {
    fail(`${at}.regex: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function checkStrings(at: string, item: Record<string, unknown>): void {
  for (const field of STRING_FIELDS) if (item[field] !== undefined && typeof item[field] !== 'string') fail(`${at}.${field}: want a string`);
  const labels = item['sourceLabels'];
  if (labels !== undefined && (!Array.isArray(labels) || !labels.every((l) => typeof l === 'string'))) fail(`${at}.sourceLabels: want a list of label names`);
  if (item['modulus'] !== undefined && !Number.isInteger(item['modulus'])) fail(`${at}.modulus: want an integer`);
}

function relabeling(at: string, item: unknown): RelabelConfig {
  if (!isPlainObject(item)) return fail(`${at}: want a relabel configuration (action, sourceLabels, regex, …)`);
  const unknown = Object.keys(item).find((k) => !FIELDS.has(k));
  if (unknown !== undefined) fail(`${at}: unknown field "${unknown}"`);
  checkStrings(at, item);
  const action = item['action'];
  if (typeof action === 'string' && !ACTIONS.has(action.toLowerCase())) fail(`${at}.action: "${action}" is not one of ${[...ACTIONS].join(', ')}`);
  if (typeof item['regex'] === 'string') checkRegex(at, item['regex']);
  return item;
}

function parsed(text: string): unknown {
  try {
    return parseYaml(text);
  } catch (error) {
    return fail(error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error));
  }
}

function componentList(component: string, list: unknown): readonly RelabelConfig[] {
  if (!COMPONENT_KEYS.has(component)) fail(`unknown component "${component}"; known: ${[...COMPONENT_KEYS].join(', ')}`);
  if (!Array.isArray(list)) return fail(`${component}: want a list of relabel configurations`);
  return list.map((item: unknown, i) => relabeling(`${component}[${String(i)}]`, item));
}

/** The configuration under the ConfigMap's data; throws {@link SreMetricsConfigError} naming what is wrong. */
export function parseSreMetricsConfig(data: Readonly<Record<string, string>> | undefined): SreMetricsConfig {
  const text = data?.[SRE_METRICS_CONFIGMAP.key];
  if (text === undefined) throw new SreMetricsConfigError(`configmap does not contain configuration key ${SRE_METRICS_CONFIGMAP.key}`);
  const document = parsed(text);
  if (document === null || document === undefined) return {};
  if (!isPlainObject(document)) return fail('want a map from component (kubeAPIServer, etcd, …) to relabel configurations');
  // A component given as null (`cvo:` with nothing under it) is no configuration for it.
  return Object.fromEntries(Object.entries(document).filter(([, list]) => list !== null).map(([component, list]) => [component, componentList(component, list)]));
}
