// A plan whose phase sequence the reader would have to guess (a phase label repeated in the sequence; phases listed
// in one section and checked off in another). It is read, and said once (info); the structure rules stay silent.
import type { PlanDialectModule } from '../types.js';

export const unstructured: PlanDialectModule = {
  name: 'unstructured',
  detect: (shape) => shape.unstructured,
};
