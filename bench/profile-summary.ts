/**
 * `npm run bench:profile-summary -- DIR`: what the profiles of `npm run bench -- --profile DIR`
 * say, per process and thread: busy time in the measured phases (bench/cpu-profile.ts's
 * phases.json; start-up and warm-up left out) and per exchange, then that time by source (package,
 * project folder, node built-ins, the workflow bundle, GC) and the functions with the most self time.
 *
 *   npm run bench:profile-summary -- DIR              every <target>-<role> folder in DIR
 *   npm run bench:profile-summary -- DIR --top 30     longer tables (default 15)
 *   npm run bench:profile-summary -- DIR --scenario two   only that scenario's phases
 *   npm run bench:profile-summary -- DIR --all        every sample, start-up and warm-up included
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../lib/paths';
import { PHASES_FILE, type ProfiledPhase } from './cpu-profile';
import { integerOption, parseFlags } from './flags';
import { aggregateProfile, top, type CpuProfile, type Window } from './profile-aggregate';

const USAGE = `npm run bench:profile-summary -- DIR [--top N] [--scenario NAME] [--all]

DIR is what npm run bench -- --profile DIR wrote: one <target>-<role> folder of .cpuprofile files
per profiled process and phases.json, the measured phases' windows. Times are self time in ms,
in the measured phases only (of one scenario with --scenario) unless --all; "per ex" divides by the
exchanges those phases completed.`;

const ms = (us: number) => (us / 1000).toFixed(0);
const perEx = (us: number, exchanges: number) => (exchanges ? (us / 1000 / exchanges).toFixed(3) : '-');

/** `CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile`: thread 0 is the main thread. */
function threadOf(file: string): string {
  const thread = file.split('.')[4];
  return thread === '0' ? 'main thread' : `worker thread ${thread ?? '?'}`;
}

function main(): number {
  // DIR first, then the flags.
  const [first, ...rest] = process.argv.slice(2);
  const given = first !== undefined && !first.startsWith('--');
  let args: Map<string, string>;
  try {
    args = parseFlags(given ? rest : process.argv.slice(2), ['all', 'help'], ['top', 'scenario']);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (args.has('help') || !given) {
    process.stdout.write(`${USAGE}\n`);
    return args.has('help') ? 0 : 2;
  }
  const dir = path.resolve(first);
  const n = integerOption(args, {})('top', 'BENCH_PROFILE_TOP', 15, 1);
  const all = args.has('all');
  let phases: ProfiledPhase[] = [];
  try {
    phases = JSON.parse(readFileSync(path.join(dir, PHASES_FILE), 'utf8')) as ProfiledPhase[];
  } catch {
    if (!all) process.stderr.write(`no ${PHASES_FILE} in ${dir}: counting every sample (as --all)\n`);
  }
  const root = projectRoot(__dirname);
  const folders = readdirSync(dir)
    .filter((f) => statSync(path.join(dir, f)).isDirectory())
    .sort();
  for (const folder of folders) {
    // The folder is <target>-<role>; target names hold dashes themselves (bare-local).
    const scenario = args.get('scenario');
    const mine = phases.filter((p) => folder.startsWith(`${p.target}-`) && (!scenario || p.scenario === scenario));
    const windows: Window[] | undefined = all || mine.length === 0 ? undefined : mine;
    const exchanges = windows ? mine.reduce((s, p) => s + p.completed, 0) : 0;
    const files = readdirSync(path.join(dir, folder)).filter((f) => f.endsWith('.cpuprofile'));
    const lines = [
      `== ${folder}: ${files.length} thread profile(s); ${windows ? `${mine.length} measured phases, ${exchanges} exchanges (${[...new Set(mine.map((p) => p.scenario))].join(', ')})` : 'every sample'}`,
    ];
    for (const file of files.sort()) {
      const profile = JSON.parse(readFileSync(path.join(dir, folder, file), 'utf8')) as CpuProfile;
      const t = aggregateProfile(profile, root, windows);
      if (t.busyUs === 0) continue;
      lines.push(
        '',
        `-- ${threadOf(file)} (${file}): busy ${ms(t.busyUs)} ms of ${ms(t.sampledUs)} sampled` +
          (exchanges ? `, ${perEx(t.busyUs, exchanges)} ms per exchange` : ''),
      );
      const table = (title: string, map: ReadonlyMap<string, number>) => {
        lines.push(`   ${title.padEnd(48)} ${'ms'.padStart(7)} ${'per ex'.padStart(7)}      %`);
        for (const [source, us] of top(map, n))
          lines.push(
            `   ${source.padEnd(48)} ${ms(us).padStart(7)} ${perEx(us, exchanges).padStart(7)} ${((100 * us) / t.busyUs).toFixed(1).padStart(6)}`,
          );
      };
      table('by source (self time)', t.bySource);
      table('by caller (node built-ins charged to their caller)', t.byCaller);
      lines.push(`   top functions (self time)`);
      for (const [fn, us] of top(t.byFunction, n))
        lines.push(`   ${ms(us).padStart(7)} ${perEx(us, exchanges).padStart(7)}  ${fn}`);
    }
    process.stdout.write(`${lines.join('\n')}\n\n`);
  }
  return 0;
}

process.exitCode = main();
