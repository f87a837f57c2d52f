/** Bytes on disk of a folder tree, or of the files next to each other that share a name's start (a SQLite database and its -wal, -shm). */
import { lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';

export function folderBytes(dir: string): number {
  let total = 0;
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return 0; // gone, or not readable by this user
  }
  for (const name of entries) {
    const full = path.join(dir, name);
    try {
      const stat = lstatSync(full);
      total += stat.isDirectory() ? folderBytes(full) : stat.size;
    } catch {
      // removed while walking
    }
  }
  return total;
}

export function filesBytes(first: string): number {
  const dir = path.dirname(first);
  const base = path.basename(first);
  let total = 0;
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(base)) continue;
    try {
      total += lstatSync(path.join(dir, name)).size;
    } catch {
      // removed meanwhile
    }
  }
  return total;
}
