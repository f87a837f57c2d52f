/**
 * A strict reader of the Prometheus text exposition format (0.0.4), for tests of /metrics
 * (prom-client writes the format but has no parser). Every line must be a HELP, a TYPE, another
 * comment, blank, or a sample of a family whose TYPE came before it; names, labels, escapes and
 * values must be well formed; a series may appear once; a histogram's buckets must rise to +Inf
 * and agree with its count. Anything else throws, naming the line.
 */

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  samples: Sample[];
  /** Family name → counter, gauge, histogram, summary or untyped. */
  types: Map<string, string>;
  help: Map<string, string>;
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

/** A value as Prometheus reads it (Go's ParseFloat: Inf and NaN in any case; prom-client writes `Nan`). */
function parseValue(text: string, where: string): number {
  if (/^\+?inf(inity)?$/i.test(text)) return Infinity;
  if (/^-inf(inity)?$/i.test(text)) return -Infinity;
  if (/^nan$/i.test(text)) return NaN;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text))
    throw new Error(`${where}: bad value ${JSON.stringify(text)}`);
  return Number(text);
}

/** Reads `{a="x",b="y"}` from `text` at `start` (just after the metric name); returns the labels and where it ended. */
function parseLabels(text: string, start: number, where: string): { labels: Record<string, string>; end: number } {
  const labels: Record<string, string> = {};
  let i = start + 1;
  for (;;) {
    if (text[i] === '}') return { labels, end: i + 1 };
    const eq = text.indexOf('=', i);
    if (eq < 0) throw new Error(`${where}: unterminated labels`);
    const name = text.slice(i, eq);
    if (!LABEL_NAME.test(name)) throw new Error(`${where}: bad label name ${JSON.stringify(name)}`);
    if (name in labels) throw new Error(`${where}: label ${name} given twice`);
    if (text[eq + 1] !== '"') throw new Error(`${where}: label ${name} value is not quoted`);
    let value = '';
    let j = eq + 2;
    for (; j < text.length && text[j] !== '"'; j += 1) {
      if (text[j] === '\\') {
        const next = text[j + 1];
        if (next === 'n') value += '\n';
        else if (next === '\\' || next === '"') value += next;
        else throw new Error(`${where}: bad escape \\${next} in label ${name}`);
        j += 1;
      } else if (text[j] === '\n') throw new Error(`${where}: raw newline in label ${name}`);
      else value += text[j];
    }
    if (text[j] !== '"') throw new Error(`${where}: unterminated value of label ${name}`);
    labels[name] = value;
    i = j + 1;
    if (text[i] === ',') i += 1;
    else if (text[i] !== '}') throw new Error(`${where}: expected , or } after label ${name}`);
  }
}

/** The family a sample belongs to: its own name, or the histogram/summary it is a part of. */
function familyOf(name: string, types: Map<string, string>): string | undefined {
  if (types.has(name)) return name;
  for (const suffix of ['_bucket', '_sum', '_count']) {
    if (!name.endsWith(suffix)) continue;
    const base = name.slice(0, -suffix.length);
    const type = types.get(base);
    if (type === 'histogram' || (type === 'summary' && suffix !== '_bucket')) return base;
  }
  return undefined;
}

const seriesKey = (name: string, labels: Record<string, string>) =>
  `${name}${JSON.stringify(Object.entries(labels).sort(([a], [b]) => a.localeCompare(b)))}`;

export function parsePrometheusText(text: string): Exposition {
  if (text.length > 0 && !text.endsWith('\n')) throw new Error('the exposition does not end with a newline');
  const exposition: Exposition = { samples: [], types: new Map(), help: new Map() };
  const seen = new Set<string>();
  const sampled = new Set<string>();
  const lines = text.split('\n');
  lines.pop(); // after the final newline
  lines.forEach((line, index) => {
    const where = `line ${index + 1} (${JSON.stringify(line.slice(0, 120))})`;
    if (line.trim() === '') return;
    if (line.startsWith('#')) {
      const match = /^# (HELP|TYPE) (\S+)(?: (.*))?$/.exec(line);
      if (!match) return; // another comment
      const [, keyword, name, rest] = match as unknown as [string, string, string, string | undefined];
      if (!METRIC_NAME.test(name)) throw new Error(`${where}: bad metric name`);
      if (keyword === 'HELP') {
        if (exposition.help.has(name)) throw new Error(`${where}: second HELP for ${name}`);
        exposition.help.set(name, rest ?? '');
      } else {
        if (!rest || !TYPES.has(rest)) throw new Error(`${where}: bad TYPE ${JSON.stringify(rest)}`);
        if (exposition.types.has(name)) throw new Error(`${where}: second TYPE for ${name}`);
        if (sampled.has(name)) throw new Error(`${where}: TYPE for ${name} after its samples`);
        exposition.types.set(name, rest);
      }
      return;
    }
    const nameEnd = line.search(/[{ ]/);
    if (nameEnd <= 0) throw new Error(`${where}: not a sample`);
    const name = line.slice(0, nameEnd);
    if (!METRIC_NAME.test(name)) throw new Error(`${where}: bad metric name`);
    let labels: Record<string, string> = {};
    let rest = line.slice(nameEnd);
    if (rest.startsWith('{')) {
      const parsed = parseLabels(line, nameEnd, where);
      labels = parsed.labels;
      rest = line.slice(parsed.end);
    }
    const parts = /^ (\S+)(?: (-?\d+))?$/.exec(rest);
    if (!parts) throw new Error(`${where}: expected " value [timestamp]"`);
    const family = familyOf(name, exposition.types);
    if (!family) throw new Error(`${where}: sample of ${name} without a TYPE line before it`);
    sampled.add(family);
    const key = seriesKey(name, labels);
    if (seen.has(key)) throw new Error(`${where}: series given twice`);
    seen.add(key);
    exposition.samples.push({ name, labels, value: parseValue(parts[1]!, where) });
  });
  checkHistograms(exposition);
  return exposition;
}

/** Each histogram series: buckets with `le`, rising bounds, cumulative counts, +Inf equal to _count. */
function checkHistograms(exposition: Exposition): void {
  for (const [family, type] of exposition.types) {
    if (type !== 'histogram') continue;
    const series = new Map<string, Array<{ le: number; value: number }>>();
    for (const sample of exposition.samples.filter((s) => s.name === `${family}_bucket`)) {
      const { le, ...rest } = sample.labels;
      if (le === undefined) throw new Error(`${family}_bucket without le`);
      const key = seriesKey(family, rest);
      series.set(key, [...(series.get(key) ?? []), { le: parseValue(le, `${family} le`), value: sample.value }]);
    }
    for (const [key, buckets] of series) {
      for (let i = 1; i < buckets.length; i += 1) {
        if (!(buckets[i]!.le > buckets[i - 1]!.le)) throw new Error(`${key}: bucket bounds do not rise`);
        if (buckets[i]!.value < buckets[i - 1]!.value) throw new Error(`${key}: bucket counts are not cumulative`);
      }
      const last = buckets.at(-1)!;
      if (last.le !== Infinity) throw new Error(`${key}: no +Inf bucket`);
      const labels = JSON.parse(key.slice(family.length)) as Array<[string, string]>;
      const count = exposition.samples.find(
        (s) =>
          s.name === `${family}_count` && seriesKey(family, s.labels) === seriesKey(family, Object.fromEntries(labels)),
      );
      if (!count || count.value !== last.value) throw new Error(`${key}: _count does not equal the +Inf bucket`);
    }
  }
}

/** The sum of the samples named `name` whose labels include `labels` (0 when there is none). */
export function valueOf(exposition: Exposition, name: string, labels: Record<string, string> = {}): number {
  return exposition.samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

export async function scrape(url: string): Promise<Exposition> {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`${url} answered HTTP ${response.status}`);
  const type = response.headers.get('content-type') ?? '';
  if (!type.startsWith('text/plain; version=0.0.4')) throw new Error(`${url} has Content-Type ${type}`);
  return parsePrometheusText(await response.text());
}
