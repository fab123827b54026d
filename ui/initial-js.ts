/**
 * The initial JavaScript of the built UI (at most 150 KiB gzip): the entry chunk plus every
 * chunk it imports statically, transitively, as Vite's manifest (ui/dist/.vite/manifest.json, `build.manifest`)
 * lists them. Chunks reached only through dynamic import() (the lazily loaded screens) are not initial.
 * Node-side helper for the size test and the browser benchmark; not part of the UI bundle.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const UI_DIST_DIR = fileURLToPath(new URL('./dist', import.meta.url));
export const INITIAL_JS_BUDGET_BYTES = 150 * 1024;

interface ManifestChunk { file: string; isEntry?: boolean; imports?: string[]; dynamicImports?: string[] }

export interface InitialJs {
  /** Output files (relative to the dist folder) of the entry and its static imports. */
  files: string[];
  rawBytes: number;
  gzipBytes: number;
}

export function measureInitialJs(distDir = UI_DIST_DIR): InitialJs {
  const manifestPath = path.join(distDir, '.vite', 'manifest.json');
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>;
  const entries = Object.keys(manifest).filter((key) => manifest[key].isEntry);
  if (entries.length === 0) throw new Error(`${manifestPath} names no entry chunk`);
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const imported of manifest[key].imports ?? []) visit(imported);
  };
  entries.forEach(visit);
  const files = [...seen].map((key) => manifest[key].file).filter((file) => file.endsWith('.js'));
  let rawBytes = 0;
  let gzipBytes = 0;
  for (const file of files) {
    const content = fs.readFileSync(path.join(distDir, file));
    rawBytes += content.length;
    gzipBytes += gzipSync(content, { level: 9 }).length;
  }
  return { files, rawBytes, gzipBytes };
}

export const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
