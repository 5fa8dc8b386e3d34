import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { prometheusArgs, prometheusConfig, type ScrapeJob } from './prometheus.ts';

const SECURE: ScrapeJob = {
  jobName: 'apiserver',
  fileSdFiles: ['/run/targets/apiserver.json'],
  scheme: 'https',
  metricsPath: '/metrics',
  scrapeInterval: '1s',
  tls: { caFile: '/pki/ca.crt', certFile: '/pki/client.crt', keyFile: '/pki/client.key', serverName: 'localhost' },
  metricRelabelConfigs: [
    { sourceLabels: ['__name__'], regex: 'apiserver_request_total|up', action: 'keep' },
    { sourceLabels: ['verb', 'code'], separator: ':', targetLabel: 'call', replacement: '$1', action: 'replace' },
  ],
};

describe('prometheus configuration', () => {
  it('When a job is given as data, it should be written with Prometheus\'s snake_case keys and nothing that was not given', () => {
    const config = parse(prometheusConfig([SECURE, { jobName: 'plain', staticTargets: ['127.0.0.1:9100'], labels: { role: 'node' } }], '5s')) as unknown;
    assert.deepEqual(config, {
      global: { scrape_interval: '5s' },
      scrape_configs: [
        {
          job_name: 'apiserver',
          scheme: 'https',
          metrics_path: '/metrics',
          scrape_interval: '1s',
          tls_config: { ca_file: '/pki/ca.crt', cert_file: '/pki/client.crt', key_file: '/pki/client.key', server_name: 'localhost' },
          file_sd_configs: [{ files: ['/run/targets/apiserver.json'] }],
          metric_relabel_configs: [
            { source_labels: ['__name__'], regex: 'apiserver_request_total|up', action: 'keep' },
            { source_labels: ['verb', 'code'], separator: ':', target_label: 'call', replacement: '$1', action: 'replace' },
          ],
        },
        { job_name: 'plain', static_configs: [{ targets: ['127.0.0.1:9100'], labels: { role: 'node' } }] },
      ],
    });
  });

  it('When a regex or replacement looks like another YAML type, it should stay a string', () => {
    const config = parse(prometheusConfig([{ jobName: 'j', staticTargets: ['127.0.0.1:1'], metricRelabelConfigs: [{ regex: '(.*): #x', replacement: 'true', targetLabel: 'on' }] }], '1s')) as {
      scrape_configs: Array<{ metric_relabel_configs: unknown[] }>;
    };
    assert.deepEqual(config.scrape_configs[0]?.metric_relabel_configs, [{ regex: '(.*): #x', replacement: 'true', target_label: 'on' }]);
  });

  it('When started, it should listen on loopback only with the lifecycle API on, so a reload needs no restart', () => {
    assert.deepEqual(prometheusArgs({ configFile: '/d/prometheus.yml', storageDir: '/d/data', port: 20100 }), [
      '--config.file=/d/prometheus.yml',
      '--storage.tsdb.path=/d/data',
      '--web.listen-address=127.0.0.1:20100',
      '--web.enable-lifecycle',
    ]);
  });
});
