/**
 * The documentation names files a reader then opens: every one must exist. A file renamed or deleted leaves its
 * name behind in prose nobody re-reads, and the next reader looks for a file that is not there. Checked here: in
 * docs/*.md, the README and bench/README.md, every path of the repository's own folders (`domain/…`, `ui/src/…`, in
 * backticks or not) and every file name in backticks (`admin-edit-in-place.tsx`, found anywhere in the repository).
 * What a build or a run writes (dist/, data/, test-results/, ui/dist/, bench/results/) is not in a checkout and is not
 * checked.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const SKIPPED_DIRS = new Set(['node_modules', '.git', 'dist', 'data', 'test-results', 'results', '.cache']);

/** Every file of the checkout's own folders (relative paths), and the folders themselves. */
function checkoutEntries(): { paths: Set<string>; names: Set<string> } {
  const paths = new Set<string>();
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      if (SKIPPED_DIRS.has(entry.name)) continue;
      const relative = dir ? `${dir}/${entry.name}` : entry.name;
      paths.add(relative);
      if (entry.isDirectory()) walk(relative);
      else names.add(entry.name);
    }
  };
  walk('');
  return { paths, names };
}

const { paths, names } = checkoutEntries();
const topFolders = [...paths].filter((p) => !p.includes('/') && fs.statSync(path.join(root, p)).isDirectory());
const GENERATED = /^(?:ui\/dist|bench\/results)(?:\/|$)/;
const SOURCE_NAME = /^[\w.-]+\.(?:ts|tsx|mts|mjs|js|sh|sql|hbs|json|yml|yaml)$/;

const documents = [
  ...fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`),
  'README.md', 'bench/README.md',
];

/** The repository paths and backticked file names a document mentions, each with its line number. */
function mentionedFiles(document: string): { line: number; name: string; kind: 'path' | 'name' }[] {
  const pathPattern = new RegExp(`(?<![\\w./@-])((?:${topFolders.map((f) => f.replace(/\./g, '\\.')).join('|')})/[\\w./@-]*)`, 'g');
  const found: { line: number; name: string; kind: 'path' | 'name' }[] = [];
  fs.readFileSync(path.join(root, document), 'utf8').split('\n').forEach((text, index) => {
    for (const match of text.matchAll(pathPattern)) {
      const name = match[1].replace(/[.,;:]+$/, '').replace(/\/$/, '');
      // a pattern (`tests/**/*.test.ts`, `<name>.log`) or a placeholder names no one file
      if (/[*<>{}[\]]/.test(text.slice(match.index, match.index + match[0].length + 1)) || GENERATED.test(name)) continue;
      found.push({ line: index + 1, name, kind: 'path' });
    }
    for (const span of text.matchAll(/`([^`\s]+)`/g)) {
      if (SOURCE_NAME.test(span[1])) found.push({ line: index + 1, name: span[1], kind: 'name' });
    }
  });
  return found;
}

describe('file names in the documentation', () => {
  it('finds the repository\'s folders and files to check against (the check itself can fail)', () => {
    expect(topFolders).toEqual(expect.arrayContaining(['api', 'domain', 'docs', 'ui']));
    expect(names.has('admin-edit-in-place.tsx')).toBe(true);
    expect(mentionedFiles('docs/ARCHITECTURE.md').map((m) => m.name)).toEqual(expect.arrayContaining(['domain/office-time.ts', 'eslint.config.js']));
  });

  it.each(documents)('%s names only files that exist', (document) => {
    const missing = mentionedFiles(document)
      .filter(({ name, kind }) => (kind === 'path' ? !paths.has(name) : !names.has(name) && !paths.has(name)))
      .map(({ line, name }) => `${document}:${line} ${name}`);
    expect(missing).toEqual([]);
  });
});
