// Compile-time proof that a hand-written public interface and its schema's output agree.
// The schemas accept unknown fields at run time (forward compatibility), which zod types as
// an index signature; the public interfaces leave it out so that a misspelled field is an
// error. `Known` strips those index signatures, at every depth, before comparing.

type Known<T> = T extends readonly (infer E)[]
  ? Known<E>[]
  : T extends object
    ? { [K in keyof T as string extends K ? never : K]: Known<T[K]> }
    : T;

/** `true` only when A and B are the same type, optional and readonly modifiers included. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Use as `const _x: SameShape<Article, z.output<typeof ArticleSchema>> = true`. */
export type SameShape<Interface, Output> = Same<Known<Interface>, Known<Output>>;
