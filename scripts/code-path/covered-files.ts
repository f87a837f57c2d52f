/**
 * Which of a project's source files ran code between two moments, from V8's precise coverage:
 * `start` once, then `take` resets the counts, so each `take` covers what ran since the one
 * before. Files of the project are `file://` scripts under its root outside node_modules, and the
 * modules of a webpack bundle (the Temporal workflow bundle, built in development mode, keeps each
 * module's path in a `/***\/ "path"` marker before its factory).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { InspectorTarget } from '../inspector-session';

interface FunctionCoverage {
  ranges: Array<{ startOffset: number; endOffset: number; count: number }>;
}
interface ScriptCoverage {
  scriptId: string;
  url: string;
  functions: FunctionCoverage[];
}

export interface CoverageProbe {
  /** The project files (root-relative) that ran code since the last take. */
  take(): Promise<Set<string>>;
}

export async function startCoverage(target: InspectorTarget, root: string): Promise<CoverageProbe> {
  await target.send('Profiler.enable');
  await target.send('Debugger.enable');
  await target.send('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  const bundleModules = new Map<string, Array<{ at: number; file: string }>>();

  async function modulesOf(scriptId: string): Promise<Array<{ at: number; file: string }>> {
    const known = bundleModules.get(scriptId);
    if (known) return known;
    const { scriptSource } = await target.send<{ scriptSource: string }>('Debugger.getScriptSource', { scriptId });
    const modules = [...scriptSource.matchAll(/^\/\*\*\*\/ "([^"]+)":?$/gm)].map((m) => ({
      at: m.index,
      file: projectFile(m[1]!, root),
    }));
    bundleModules.set(scriptId, modules);
    return modules;
  }

  return {
    async take() {
      const { result } = await target.send<{ result: ScriptCoverage[] }>('Profiler.takePreciseCoverage');
      const files = new Set<string>();
      for (const script of result) {
        const ran = script.functions.filter((f) => (f.ranges[0]?.count ?? 0) > 0);
        if (ran.length === 0) continue;
        // The workflow bundle is evaluated under a file name of its own that is on no disk.
        if (script.url.startsWith('file://') && existsSync(fileURLToPath(script.url))) {
          const file = projectFile(fileURLToPath(script.url), root);
          if (file) files.add(file);
          continue;
        }
        const modules = script.url.startsWith('file://') ? await modulesOf(script.scriptId) : [];
        for (const f of ran) {
          const start = f.ranges[0]!.startOffset;
          const owner = modules.filter((m) => m.at < start).at(-1);
          if (owner?.file) files.add(owner.file);
        }
      }
      return files;
    },
  };
}

/** A path as the project's root-relative file, or '' when it is not one of the project's own. */
function projectFile(file: string, root: string): string {
  const relative = path.isAbsolute(file) ? path.relative(root, file) : file.replace(/^\.\//, '');
  if (relative.startsWith('..') || relative.includes('node_modules')) return '';
  return relative.split(path.sep).join('/');
}
