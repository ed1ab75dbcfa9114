// How many cases a fast-check property tries. Each property is written with the count that explored it (its deep
// run); the suite runs a fifth of that, from the same fixed seed, so a failure reproduces exactly and `npm test`
// does not spend a third of its JS time generating cases. The deep runs are one variable away:
// PROPERTY_RUNS=deep runs every property at its written count, PROPERTY_RUNS=<n> runs n cases each (README,
// "Working on it").
const VARIABLE = 'PROPERTY_RUNS';
const SHARE = 5;

/**
 * The number of cases for a property whose deep run is `deep` cases. fast-check counts a property's `examples` among
 * its runs, so a property with examples passes their count to keep its random cases. A number asked below the default
 * is raised to it: the properties' guards (a share of the cases must reach a branch) mean nothing over a handful.
 */
export function propertyRuns(deep: number, examples = 0): number {
  const least = Math.max(1, Math.ceil(deep / SHARE));
  const asked = process.env[VARIABLE];
  if (asked === 'deep') return deep + examples;
  if (asked !== undefined && asked !== '') {
    const n = Number(asked);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${VARIABLE}=${asked}: give "deep" or a whole number of runs`);
    return Math.max(n, least) + examples;
  }
  return least + examples;
}
