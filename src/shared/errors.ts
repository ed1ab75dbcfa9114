/**
 * A usage error: the user asked for something the tool cannot do as asked (exit code 2 at the CLI, a thrown Error
 * at the API). Down here because the engine's doors are what find most of them (a range naming no revision, a
 * message file that is not there), and the CLI, the API and the engine all speak of it.
 */
export class UsageError extends Error {}
