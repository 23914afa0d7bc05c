/** The named keys of T that are optional (not an index signature's: `travel`'s labels). */
type OptionalKeys<T> = { [K in keyof T]-?: string extends K ? never : number extends K ? never : Record<never, never> extends Pick<T, K> ? K : never }[keyof T];

/**
 * A response type as the engine returns it: T (a TypeBox `Static` of a response schema) where
 * every optional key, at any depth, may also be present holding `undefined`.
 *
 * The engine builds each kind of response object with every key set, in one order, so that
 * all objects of a kind share one shape (V8 keeps the code that reads them monomorphic:
 * src/details/establishment-record.ts); a field a venue lacks holds `undefined`, which JSON
 * (the HTTP adapter, `JSON.stringify`) omits. The schema's `x?: T` means "absent or T" to a
 * consumer compiled with `exactOptionalPropertyTypes`, so that `'x' in answer` would narrow to
 * T and then meet `undefined`; this type says what is there: `x?: T | undefined`.
 */
export type Answer<T> = T extends readonly unknown[]
  ? { [K in keyof T]: Answer<T[K]> } // arrays and tuples keep their kind ([lat, lon] stays a pair)
  : T extends object
    ? { [K in keyof T]: K extends OptionalKeys<T> ? Answer<T[K]> | undefined : Answer<T[K]> }
    : T;
