// Models of file versions, keyed by blob id and path: each distinct content is parsed once, however many commits
// hold it. Versions are loaded in batches through one `git cat-file --batch`.
import type { WorkflowFile } from '../model/types.js';
import type { Classifier } from '../read/classify.js';
import { readBytes } from '../read/workspace.js';
import { readBlobs } from './git.js';

export const key = (blob: string, path: string) => `${blob}:${path}`;

export class ModelStore {
  readonly models = new Map<string, WorkflowFile>();
  readonly texts = new Map<string, string>();

  constructor(
    readonly root: string,
    readonly classify: Classifier,
    readonly maxBytes: number,
  ) {}

  /** Parse every (blob, path) not yet known, in one batch. */
  load(refs: { blob: string; path: string }[]): void {
    const todo = refs.filter((r) => this.classify(r.path) && r.path !== '' && !this.models.has(key(r.blob, r.path)));
    if (todo.length === 0) return;
    const blobs = readBlobs(this.root, [...new Set(todo.map((r) => r.blob))]);
    for (const r of todo) {
      const item = this.classify(r.path)!;
      if (item.kind === 'searchable') continue;
      const bytes = blobs.get(r.blob);
      if (!bytes) continue;
      this.models.set(key(r.blob, r.path), readBytes(item, bytes, this.maxBytes));
    }
  }

  add(blob: string, path: string, model: WorkflowFile): void {
    this.models.set(key(blob, path), model);
  }

  get(blob: string, path: string): WorkflowFile | null {
    const k = key(blob, path);
    if (!this.models.has(k)) this.load([{ blob, path }]);
    return this.models.get(k) ?? null;
  }

  /** Raw text of a non-workflow file version (the config, package.json), cached by blob. */
  text(blob: string): string {
    let t = this.texts.get(blob);
    if (t === undefined) {
      t = readBlobs(this.root, [blob]).get(blob)?.toString('utf8') ?? '';
      this.texts.set(blob, t);
    }
    return t;
  }
}
