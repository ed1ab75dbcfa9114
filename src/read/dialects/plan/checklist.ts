// Checkboxes without phases or task headings (a flat `- [ ] Task 1: ...` list, or criteria alone): one implicit
// phase. The last resort of the registry: every plan that no other dialect claims is read this way.
import type { PlanDialectModule } from '../types.js';

export const checklist: PlanDialectModule = {
  name: 'checklist',
  detect: () => true,
};
