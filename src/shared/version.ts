// The package's own version, read once from its package.json (two folders up from dist/shared/).
import { readFileSync } from 'node:fs';

let cached: string | null = null;

export function toolVersion(): string {
  cached ??= (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  return cached;
}
