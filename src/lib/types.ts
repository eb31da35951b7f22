/**
 * True when `A` and `B` are the same type (optional and readonly fields included). Used as
 * `const check: Same<A, B> = true`, so a schema that drifts from the type it describes stops
 * the build.
 */
export type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2)
  ? true
  : false;
