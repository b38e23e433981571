// http_request_duration_seconds, kept by hand rather than by prom-client's Histogram: that one
// builds, validates and hashes a label object on every observation, the largest share of what
// GET /metrics cost a /v1 request in the profile of issue 27 (bench/LOG.md). Here a request
// adds to the series of its method, route and status, found by one string key. The registry
// writes it in the very text prom-client writes its histograms in.
import type { Metric } from 'prom-client';

interface Series {
  labels: { method: string; route: string; status: string };
  /** Observations per bucket, not cumulative (the export adds them up). */
  counts: number[];
  sum: number;
  count: number;
}

/** One exported sample, as prom-client's registry reads it from a metric's get(). */
interface Sample {
  labels: Record<string, string | number>;
  sharedLabels: Record<string, string>;
  value: number;
  metricName: string;
}

export class RequestDurations {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly series = new Map<string, Series>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly upperBounds: readonly number[],
  ) {}

  observe(method: string, route: string, status: number, seconds: number): void {
    // The route pattern comes last, so the key cannot be read two ways.
    const key = `${method} ${status} ${route}`;
    let series = this.series.get(key);
    if (series === undefined) {
      series = { labels: { method, route, status: String(status) }, counts: this.upperBounds.map(() => 0), sum: 0, count: 0 };
      this.series.set(key, series);
    }
    const bucket = this.upperBounds.findIndex((bound) => seconds <= bound);
    if (bucket !== -1) series.counts[bucket]! += 1;
    series.sum += seconds;
    series.count += 1;
  }

  /** Read by the registry when it renders GET /metrics. */
  async get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: Sample[] }> {
    const values: Sample[] = [];
    for (const series of this.series.values()) {
      const shared = series.labels;
      let cumulative = 0;
      this.upperBounds.forEach((bound, i) => {
        cumulative += series.counts[i]!;
        values.push({ labels: { le: bound }, sharedLabels: shared, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { le: '+Inf' }, sharedLabels: shared, value: series.count, metricName: `${this.name}_bucket` });
      values.push({ labels: {}, sharedLabels: shared, value: series.sum, metricName: `${this.name}_sum` });
      values.push({ labels: {}, sharedLabels: shared, value: series.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    this.series.clear();
  }

  /** The registry's type names only prom-client's own classes; it reads name, help, type and get(). */
  asMetric(): Metric {
    return this as unknown as Metric;
  }
}
