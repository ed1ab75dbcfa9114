// Continuous-Claude v3 YAML handoffs (`*.yaml`): a frontmatter document, then a body document. Before every name-based dialect: a `task-01-x.yaml` is read as YAML, and is a task handoff by its name.
import type { HandoffDialectModule } from '../types.js';

export const yamlSession: HandoffDialectModule = {
  name: 'yaml-session',
  detect: (fileName) => /\.ya?ml$/i.test(fileName),
  format: 'yaml',
};
