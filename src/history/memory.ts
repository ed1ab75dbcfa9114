// Snapshots of files held in memory (no git): the rule tester's before and after, and the Claude Code hook's
// "the file as this edit would leave it". Blob ids are git's, so a memory snapshot and a commit of the same bytes
// name the same versions.
import type { WorkflowFile } from '../model/types.js';
import type { Classifier } from '../read/classify.js';
import { readBytes } from '../read/workspace.js';
import { blobId } from '../shared/git.js';
import { Snapshot, type ModelSource } from './snapshot.js';

export class MemorySource implements ModelSource {
  private readonly bytes_ = new Map<string, Uint8Array>();
  private readonly models = new Map<string, WorkflowFile>();

  constructor(
    readonly classify: Classifier,
    readonly maxBytes: number,
    /** Models already parsed elsewhere, by `blob:path` (the hooks' cache). */
    private readonly fallback?: ModelSource,
  ) {}

  /** Keep these bytes; @returns their blob id */
  put(content: string | Uint8Array): string {
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    const id = blobId(bytes);
    this.bytes_.set(id, bytes);
    return id;
  }

  get(blob: string, path: string): WorkflowFile | null {
    const k = `${blob}:${path}`;
    const known = this.models.get(k);
    if (known) return known;
    const bytes = this.bytes_.get(blob);
    if (!bytes) return this.fallback?.get(blob, path) ?? null;
    const item = this.classify(path);
    if (!item || item.kind === 'searchable') return null;
    const model = readBytes(item, bytes, this.maxBytes);
    this.models.set(k, model);
    return model;
  }

  text(blob: string): string {
    const bytes = this.bytes_.get(blob);
    if (bytes) return Buffer.from(bytes).toString('utf8');
    return this.fallback?.text(blob) ?? '';
  }

  bytes(blob: string): Uint8Array | null {
    return this.bytes_.get(blob) ?? this.fallback?.bytes(blob) ?? null;
  }

  /** A snapshot of these files (path -> content). */
  snapshot(files: Record<string, string | Uint8Array>): Snapshot {
    const map = new Map<string, string>();
    for (const [path, content] of Object.entries(files)) map.set(path, this.put(content));
    return new Snapshot(map, this);
  }
}
