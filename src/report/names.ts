// The names `--format` accepts, in one place: the CLI, the Action and the API take them from here, and FORMATTERS
// (index.ts) must have an entry for each (the compiler holds it to that). No imports: the API's published types
// name this file, and they stand on their own (no Node types).
export const FORMATS = ['stylish', 'json', 'sarif', 'github', 'markdown'] as const;
export type Format = (typeof FORMATS)[number];
