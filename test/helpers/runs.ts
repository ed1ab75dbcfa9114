// How many cases a fast-check property tries. Each property is written with the count that explored it (its deep
// run); the suite runs a fifth of that, from the same fixed seed, so a failure reproduces exactly and `npm test`
// does not spend a third of its JS time generating cases. The deep runs are one variable away:
// PROPERTY_RUNS=deep runs every property at its written count, PROPERTY_RUNS=<n> runs n cases each (README,
// "Working on it").
const VARIABLE = 'PROPERTY_RUNS';
const SHARE = 5;

/** The number of cases for a property whose deep run is `deep` cases. */
export function propertyRuns(deep: number): number {
  const asked = process.env[VARIABLE];
  if (asked === 'deep') return deep;
  if (asked !== undefined && asked !== '') {
    const n = Number(asked);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${VARIABLE}=${asked}: give "deep" or a whole number of runs`);
    return n;
  }
  return Math.max(1, Math.ceil(deep / SHARE));
}
