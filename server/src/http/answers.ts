import { Type, type TSchema, type TUnsafe } from 'typebox';

/**
 * Building blocks of response schemas (TypeBox, so `Static<>` of an answer
 * can be checked against the contract's interface in src/api at compile
 * time). The server's serializer sends only the properties a schema lists
 * and requires the ones it marks required; the jsdom fake network holds the
 * tests' answers to the same schemas.
 */

/** A value or null, as one JSON-schema type list (the serializer writes it without trying branches). */
export const Nullable = <T extends 'string' | 'integer' | 'number' | 'boolean'>(
  type: T,
  options: Record<string, unknown> = {},
): TUnsafe<(T extends 'string' ? string : T extends 'boolean' ? boolean : number) | null> =>
  Type.Unsafe({ type: [type, 'null'], ...options });

/** A decimal as text (prices, amounts, percents): no pattern on answers, the server wrote it. */
export const DecimalText = () => Type.String();

/** The success envelope around an answer's data. */
export const Answer = <T extends TSchema>(data: T) => Type.Object({ code: Type.Integer(), message: Type.String(), data });

/** A page of a list: `{list, total}`. */
export const PageOf = <T extends TSchema>(item: T) => Type.Object({ list: Type.Array(item), total: Type.Integer({ minimum: 0 }) });
