import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Histogram, Summary } from 'prom-client';
import { parse, stringify } from 'yaml';
import { z } from 'zod';
import { loadConfig } from '../config.js';
import { createMetrics } from './metrics.js';

/**
 * The monitoring files of deploy/ (the Grafana dashboard, the Prometheus alerts and example
 * configuration) against the metrics a process really exports: a metric or label renamed in
 * metrics.ts without them fails here.
 */
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const DASHBOARD = join(root, 'deploy/grafana/refract-dashboard.json');
const ALERTS = join(root, 'deploy/prometheus/refract-alerts.yml');
const PROMETHEUS = join(root, 'deploy/prometheus/prometheus.example.yml');

const target = z.object({ refId: z.string().min(1), expr: z.string().trim().min(1) });
const gridPos = z.object({ x: z.number(), y: z.number(), w: z.number(), h: z.number() });
const rowPanel = z.object({
  id: z.number().int(),
  type: z.literal('row'),
  title: z.string().min(1),
  gridPos,
});
const dataPanel = z.object({
  id: z.number().int(),
  type: z.enum(['timeseries', 'stat']),
  title: z.string().min(1),
  description: z.string().min(1),
  gridPos,
  datasource: z.object({ type: z.literal('prometheus'), uid: z.literal('${datasource}') }),
  targets: z.array(target).min(1),
});
const dashboardSchema = z.object({
  // Grafana's limit for a uid.
  uid: z.string().min(1).max(40),
  title: z.literal('Refract'),
  schemaVersion: z.number(),
  panels: z.array(z.union([rowPanel, dataPanel])).min(1),
  templating: z.object({
    list: z.array(z.object({ name: z.string().min(1), type: z.string().min(1) })),
  }),
});

const alertsSchema = z.object({
  groups: z
    .array(
      z.object({
        name: z.literal('refract'),
        rules: z
          .array(
            z.object({
              alert: z.string().min(1),
              expr: z.string().trim().min(1),
              for: z.string().optional(),
              labels: z.object({ severity: z.enum(['critical', 'warning']) }),
              annotations: z.object({
                summary: z.string().min(1),
                description: z.string().min(1),
              }),
            }),
          )
          .min(1),
      }),
    )
    .length(1),
});

const dashboard = dashboardSchema.parse(JSON.parse(readFileSync(DASHBOARD, 'utf8')));
const alerts = alertsSchema.parse(parse(readFileSync(ALERTS, 'utf8')));
const rules = alerts.groups.flatMap((group) => group.rules);
const dataPanels = dashboard.panels.filter((panel) => panel.type !== 'row');

/** Every expression of the files, with where it is. */
const expressions = [
  ...dataPanels.flatMap((panel) =>
    panel.targets.map((t) => ({ where: `panel "${panel.title}" ${t.refId}`, expr: t.expr })),
  ),
  ...rules.map((rule) => ({ where: `alert ${rule.alert}`, expr: rule.expr })),
];

/** Labels every series has once scraped (the target's), whatever the metric. */
const TARGET_LABELS = ['job', 'instance'];

/**
 * The series names a fresh registry exports (a histogram's `_bucket`, `_sum` and `_count`), each
 * with the labels it may carry; plus Prometheus' own `up`.
 */
async function exported(): Promise<Map<string, string[]>> {
  // As a process that serves them has them: prom-client's defaults included.
  const { registry } = createMetrics(loadConfig({ METRICS_TOKEN: 'a-token-of-16-characters' }));
  const known = new Map<string, string[]>([['up', TARGET_LABELS]]);
  for (const { name } of await registry.getMetricsAsJSON()) {
    const metric = registry.getSingleMetric(name);
    // prom-client keeps each metric's label names, without declaring them in its types.
    const { labelNames = [] } = metric as { labelNames?: readonly string[] };
    const labels = [...labelNames, ...TARGET_LABELS];
    if (metric instanceof Histogram) {
      known.set(`${name}_bucket`, [...labels, 'le']);
      known.set(`${name}_sum`, labels);
      known.set(`${name}_count`, labels);
    } else if (metric instanceof Summary) {
      known.set(name, [...labels, 'quantile']);
      known.set(`${name}_sum`, labels);
      known.set(`${name}_count`, labels);
    } else known.set(name, labels);
  }
  return known;
}

const STRING = /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g;

/** The metric names an expression uses: identifiers (outside strings) of ours, Node's, and up. */
function metricNames(expr: string): string[] {
  const code = expr.replace(STRING, '""');
  const identifiers = [...code.matchAll(/(?<![\w:$])[a-zA-Z_:][\w:]*/g)].map((m) => m[0]);
  return identifiers.filter((name) => /^(refract|process|nodejs)_/.test(name) || name === 'up');
}

/** `metric{label="…", …}` selectors: each metric with the label names it matches on. */
function selectors(expr: string): { metric: string; labels: string[] }[] {
  return [...expr.matchAll(/(?<![\w:$])([a-zA-Z_:][\w:]*)\s*\{([^}]*)\}/g)].map((m) => ({
    metric: m[1] ?? '',
    labels: [...(m[2] ?? '').matchAll(/([a-zA-Z_]\w*)\s*(?:=~|!~|!=|=)\s*"(?:[^"\\]|\\.)*"/g)].map(
      (l) => l[1] ?? '',
    ),
  }));
}

/** The labels of `by (…)`, `without (…)`, `on (…)` and `ignoring (…)` clauses. */
function groupingLabels(expr: string): string[] {
  return [
    ...expr.replace(STRING, '""').matchAll(/\b(?:by|without|on|ignoring)\s*\(([^)]*)\)/g),
  ].flatMap((m) =>
    (m[1] ?? '')
      .split(',')
      .map((label) => label.trim())
      .filter(Boolean),
  );
}

describe('deploy/grafana/refract-dashboard.json', () => {
  it('has the shape Grafana imports: unique ids, panels on the grid without overlapping', () => {
    expect(dashboard.schemaVersion).toBe(39);
    const ids = dashboard.panels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    const boxes = dashboard.panels.map((panel) => ({ title: panel.title, ...panel.gridPos }));
    for (const box of boxes) {
      expect(box.x >= 0 && box.w > 0 && box.h > 0 && box.x + box.w <= 24, box.title).toBe(true);
    }
    for (const [i, a] of boxes.entries())
      for (const b of boxes.slice(i + 1)) {
        const overlap = a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
        expect(overlap, `"${a.title}" and "${b.title}" overlap`).toBe(false);
      }
  });

  it('defines every variable its panels use (the datasource one included)', () => {
    const variables = new Set(dashboard.templating.list.map((v) => v.name));
    expect(variables).toContain('datasource');
    const used = [...JSON.stringify(dashboard.panels).matchAll(/\$\{?(\w+)/g)].map(
      (m) => m[1] ?? '',
    );
    for (const name of new Set(used.filter((name) => !name.startsWith('__'))))
      expect(variables, `$${name}`).toContain(name);
  });
});

describe('deploy/prometheus/refract-alerts.yml', () => {
  it('names the missing engine in its summary', () => {
    const rule = rules.find((r) => r.alert === 'RefractEngineMissing');
    expect(rule?.annotations.summary).toContain('$labels.engine');
  });
});

describe('the metrics the dashboard and the alerts use', () => {
  it('are exported by a process, with the labels they select and group on', async () => {
    const known = await exported();
    for (const { where, expr } of expressions) {
      const names = metricNames(expr);
      expect(names.length, `${where} names no metric: ${expr}`).toBeGreaterThan(0);
      for (const name of names) expect(known.has(name), `${where} uses ${name}`).toBe(true);
      for (const { metric, labels } of selectors(expr))
        for (const label of labels)
          expect(known.get(metric), `${where}: ${metric} has no label ${label}`).toContain(label);
      const labelsOfExpr = new Set(names.flatMap((name) => known.get(name) ?? []));
      for (const label of groupingLabels(expr))
        expect(labelsOfExpr.has(label), `${where}: no metric of it has the label ${label}`).toBe(
          true,
        );
    }
  });
});

const promtool = spawnSync('promtool', ['--version']).status === 0;

describe('promtool', () => {
  const dir = mkdtempSync(join(tmpdir(), 'refract-promtool-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const run = (...args: string[]) => execFileSync('promtool', args, { encoding: 'utf8' });

  it.skipIf(!promtool)('checks the rules, and the example configuration with them', () => {
    expect(run('check', 'rules', ALERTS)).toContain(`SUCCESS: ${rules.length} rules found`);
    // As installed: the rules and the token file beside the configuration.
    copyFileSync(PROMETHEUS, join(dir, 'prometheus.yml'));
    copyFileSync(ALERTS, join(dir, 'refract-alerts.yml'));
    writeFileSync(join(dir, 'refract-metrics-token'), 'a-token-of-sixteen-chars-or-more\n');
    expect(run('check', 'config', join(dir, 'prometheus.yml'))).toContain('SUCCESS');
  });

  it.skipIf(!promtool)('fires each alert on the series it is about, and not on others', () => {
    // The rules without their annotations (which `promtool test rules` compares whole).
    const bare = {
      groups: alerts.groups.map((group) => ({
        ...group,
        rules: group.rules.map(({ annotations: _, ...rule }) => rule),
      })),
    };
    writeFileSync(join(dir, 'rules.yml'), stringify(bare));
    const web = (labels: string) => `{job="refract-web", instance="w1:3001", ${labels}}`;
    const series = (name: string, values: string) => ({ series: name, values });
    const test = (
      input: { series: string; values: string }[],
      alertname: string,
      expected: [string, Record<string, string>[]][],
    ) => ({
      interval: '1m',
      input_series: input,
      alert_rule_test: expected.map(([at, exp]) => ({
        eval_time: at,
        alertname,
        exp_alerts: exp.map((labels) => ({ exp_labels: { alertname, ...labels } })),
      })),
    });
    const waitBuckets = (lane: string, perMinute: number, le60: number) =>
      ['1', '5', '15', '30', '60', '120', '+Inf'].map((le) =>
        series(
          `refract_job_wait_seconds_bucket{job="refract-worker", instance="127.0.0.1:9461", lane="${lane}", tool="video", le="${le}"}`,
          `0+${Number(le) >= 120 || le === '+Inf' ? perMinute : Number(le) >= 60 ? le60 : 0}x30`,
        ),
      );
    const requests = (status: string, perMinute: number) =>
      series(
        `refract_http_request_duration_seconds_count${web(`method="POST", route="/api/convert", status="${status}"`)}`,
        `0+${perMinute}x30`,
      );
    const tests = [
      test(
        [
          // Missing in one process, there in the other: missing.
          series(`refract_engine_available${web('engine="ffmpeg"')}`, '0x10'),
          series(
            'refract_engine_available{job="refract-web", instance="w2:3002", engine="ffmpeg"}',
            '1x10',
          ),
          series(`refract_engine_available${web('engine="sharp"')}`, '1x10'),
        ],
        'RefractEngineMissing',
        [
          ['4m', []],
          ['6m', [{ severity: 'critical', engine: 'ffmpeg' }]],
        ],
      ),
      test(
        [...waitBuckets('media', 10, 0), ...waitBuckets('image', 10, 10)],
        'RefractJobWaitHigh',
        [['15m', [{ severity: 'warning', lane: 'media' }]]],
      ),
      test(
        [
          series(
            'refract_jobs{job="refract-worker", instance="a", state="queued", tool="video"}',
            '3x30',
          ),
          series(
            'refract_jobs{job="refract-web", instance="b", state="queued", tool="video"}',
            '3x30',
          ),
          series(
            'refract_job_wait_seconds_count{job="refract-worker", instance="a", lane="media", tool="video"}',
            '5x30',
          ),
        ],
        'RefractQueueStalled',
        [
          ['9m', []],
          ['12m', [{ severity: 'warning' }]],
        ],
      ),
      test(
        [
          series(
            'refract_jobs{job="refract-worker", instance="a", state="queued", tool="video"}',
            '3x30',
          ),
          series(
            'refract_job_wait_seconds_count{job="refract-worker", instance="a", lane="media", tool="video"}',
            '0+1x30',
          ),
        ],
        'RefractQueueStalled',
        [['20m', []]],
      ),
      test([requests('200', 90), requests('503', 10)], 'RefractHigh5xxRate', [
        ['8m', []],
        ['20m', [{ severity: 'critical' }]],
      ]),
      test([requests('200', 98), requests('500', 2)], 'RefractHigh5xxRate', [['20m', []]]),
      test(
        [
          series('up{job="refract-worker", instance="127.0.0.1:9462"}', '1 1 0 0 0 0'),
          series('up{job="node", instance="127.0.0.1:9100"}', '0 0 0 0 0 0'),
        ],
        'RefractProcessDown',
        [
          ['3m', []],
          ['5m', [{ severity: 'critical', job: 'refract-worker', instance: '127.0.0.1:9462' }]],
        ],
      ),
      test(
        [
          series(`nodejs_eventloop_lag_p99_seconds${web('')}`, '0.8x10'),
          series(`refract_uploads_in_flight${web('')}`, '0x10'),
          // Another Node.js service, without Refract's metrics.
          series('nodejs_eventloop_lag_p99_seconds{job="other", instance="o:80"}', '2x10'),
        ],
        'RefractEventLoopLag',
        [['6m', [{ severity: 'warning', job: 'refract-web', instance: 'w1:3001' }]]],
      ),
    ];
    writeFileSync(join(dir, 'tests.yml'), stringify({ rule_files: ['rules.yml'], tests }));
    const result = spawnSync('promtool', ['test', 'rules', join(dir, 'tests.yml')], {
      encoding: 'utf8',
    });
    expect(result.status, result.stdout + result.stderr).toBe(0);
    // Every rule of the file has a test above.
    expect(new Set(tests.flatMap((t) => t.alert_rule_test.map((a) => a.alertname)))).toEqual(
      new Set(rules.map((rule) => rule.alert)),
    );
  });
});
