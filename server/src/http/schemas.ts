import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type, type TObject, type TProperties, type TSchema, type TUnsafe } from 'typebox';

/**
 * The field rules every module shares, written once (TypeBox: each is a JSON
 * schema and, through the Fastify type provider, the TypeScript type of the
 * value a handler receives). Whatever a client sends, a value that passes
 * these can be bound into a query and stored: no offset overflows, no NUL
 * reaches PostgreSQL, no lone surrogate reaches a hash, no invisible or
 * bidi control reaches a name another person reads.
 */

/** The last page a list serves: page x pageSize stays far inside PostgreSQL's bigint and the planner's patience. */
export const MAX_PAGE = 100_000;
export const MAX_PAGE_SIZE = 100;

/**
 * Characters no single-line text takes: C0/C1 controls (NUL included), soft
 * hyphen, the bidi marks, embeddings, overrides and isolates (U+061C,
 * U+200E/F, U+202A-E, U+2066-9), zero-width spaces and joiners other than
 * U+200D (emoji sequences need it), word joiner and invisible operators
 * (U+2060-4), the byte-order mark, interlinear annotations, and lone
 * surrogates (Ajv compiles patterns with the u flag, so a surrogate pair is
 * one code point and only a lone half falls in U+D800-DFFF).
 */
export const UNSAFE_CHARACTERS = '\\u0000-\\u001f\\u007f-\\u009f\\u00ad\\u061c\\u180e\\u200b\\u200c\\u200e\\u200f\\u202a-\\u202e\\u2060-\\u206f\\ufeff\\ufff9-\\ufffb\\ud800-\\udfff';
/** Single-line text: none of the above. */
export const SAFE_TEXT_PATTERN = `^[^${UNSAFE_CHARACTERS}]*$`;
/** Multi-line text (article bodies, CSV): line breaks and tabs allowed, the rest as above. */
export const SAFE_MULTILINE_PATTERN = `^[^${UNSAFE_CHARACTERS.replace('\\u0000-\\u001f', '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f')}]*$`;

/** Single-line text a person typed: names, searches, addresses. */
export const SafeText = (options: { minLength?: number; maxLength: number; description?: string }) =>
  Type.String({ ...options, pattern: SAFE_TEXT_PATTERN });

/** Text of several lines. */
export const SafeMultilineText = (options: { minLength?: number; maxLength: number; description?: string }) =>
  Type.String({ ...options, pattern: SAFE_MULTILINE_PATTERN });

/** A secret as the user pastes it (passwords, API secrets, PEM keys): any printable text, no NUL, no lone surrogate. */
export const SecretText = (options: { minLength?: number; maxLength: number }) =>
  Type.String({ ...options, pattern: '^[^\\u0000\\ud800-\\udfff]*$' });

/** A canonical uuid ("36 dashes" is not one). */
export const Uuid = () => Type.String({ format: 'uuid' });
export const UUID_PATTERN = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
/** Comma-separated uuids (react-admin's getMany), at most 100. */
export const UuidList = () => Type.String({ maxLength: 3700, pattern: `^${UUID_PATTERN}(,${UUID_PATTERN}){0,99}$` });

/** A path parameter `{id}`. */
export const IdParams = () => Type.Object({ id: Uuid() });

/** A non-negative decimal as text: up to 18 integer digits and 18 places, no sign, exponent or spaces. */
export const AMOUNT_PATTERN = '^(0|[1-9][0-9]{0,17})(\\.[0-9]{1,18})?$';
export const Amount = () => Type.String({ pattern: AMOUNT_PATTERN, maxLength: 37 });

/** An IANA time-zone name the runtime knows (format `time-zone`, src/api/formats.ts). */
export const TimeZone = (defaultZone = 'Asia/Shanghai') => Type.String({ format: 'time-zone', maxLength: 64, default: defaultZone });

/** A calendar day YYYY-MM-DD that exists. */
export const CalendarDate = () => Type.String({ format: 'date', maxLength: 10 });

/** page and pageSize of a list; sort and order are each list's own. */
export const pagingProperties = (defaultPageSize = 20) => ({
  page: Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1 }),
  pageSize: Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: defaultPageSize }),
});

/** A string enum as one JSON-schema `enum` (TypeBox's unions of literals become anyOf, which the contract snapshot would show). */
export const StringEnum = <const T extends readonly string[]>(values: T, options: { default?: T[number]; description?: string } = {}): TUnsafe<T[number]> =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });

/** The answer envelope around a success's data (errors are described by the catalogue, not per route). */
export const envelope = (data: object) => ({
  type: 'object',
  properties: { code: { type: 'integer' }, message: { type: 'string' }, data },
});

/**
 * Query strings and path parameters: a field with a default is never
 * required of the client, yet always there for the handler (the validator
 * fills it in), so its type is not optional.
 */
export const Query = <P extends TProperties>(properties: P, options: { additionalProperties?: false } = {}): TObject<P> => {
  const schema = Type.Object(properties, options);
  const json = schema as unknown as { required?: string[] };
  const required = (json.required ?? []).filter((key) => !('default' in (properties[key] as object)));
  if (required.length > 0) json.required = required;
  else delete json.required;
  return schema;
};

/** A JSON body: unknown fields refused (10008); the optional ones wrapped in `Type.Optional`. */
export const Body = <P extends TProperties>(properties: P): TObject<P> => Type.Object(properties, { additionalProperties: false });

/** A route plugin's instance whose handlers take their request types from the TypeBox schemas. */
export const typed = (app: FastifyInstance) => app.withTypeProvider<TypeBoxTypeProvider>();

/** Compile time: A and B accept the same values (a schema and the contract's hand-written interface cannot drift apart). */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** `SameShape<Same<Static<typeof schema>, Interface>>()` fails to compile when they differ. */
export const SameShape = <_Check extends true>(): void => undefined;

export { Type };
export type { TSchema };
