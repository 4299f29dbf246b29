/** pgvector's text form of a vector, bound as a parameter and cast with CAST($n AS vector). */
export const toVectorLiteral = (vector: readonly number[]): string => `[${vector.join(',')}]`;
