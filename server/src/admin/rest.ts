import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '../../../src/api/errors';
import { ok } from '../http/envelope';
import { fail } from '../http/errors';
import type { TProperties } from 'typebox';
import { Type } from '../http/schemas';

/**
 * The operator console's resources speak ra-data-simple-rest's dialect under
 * /api/admin/<resource> (README "Operator console"):
 *
 *   GET    /api/admin/<resource>?sort=["field","ASC"]&range=[0,24]&filter={"q":"x"}
 *          -> envelope(data: record[]) with `Content-Range: <resource> 0-24/319`
 *   GET    /api/admin/<resource>/<id>
 *   POST   /api/admin/<resource>            (create)
 *   PUT    /api/admin/<resource>/<id>       (change: only the fields sent)
 *   DELETE /api/admin/<resource>/<id>       (answers the removed record)
 *
 * Answers are still our envelope. `sort`, `range` and `filter` arrive as JSON
 * text; they are parsed before validation, so the route's querystring schema
 * checks them like any other field (and the OpenAPI document shows them).
 */

/** The most records one list answer holds. */
export const MAX_RANGE = 100;

const JSON_PARAMS = ['sort', 'range', 'filter'] as const;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** preValidation hook of list routes: `sort`, `range` and `filter` from JSON text to values (10003 when not JSON). */
export const parseListParams = async (request: FastifyRequest): Promise<void> => {
  const query = request.query;
  if (!isRecord(query)) return;
  for (const name of JSON_PARAMS) {
    const text = query[name];
    if (text === undefined) continue;
    try {
      if (typeof text !== 'string') throw new Error('repeated');
      query[name] = JSON.parse(text);
    } catch {
      fail(ErrorCode.PARAM_FORMAT, `querystring.${name} must be JSON`, { field: name });
    }
  }
};

type Order = 'ASC' | 'DESC' | 'asc' | 'desc';
/** `filter={"id":[...]}`: the records of those ids (react-admin's getMany). */
type IdFilter = (string | number)[];

/**
 * The querystring schema of a list: the sortable fields, the range and the
 * filters it understands (each optional; an unknown sort field or filter is
 * refused, 10008). Its type is what the handler reads once the JSON is parsed.
 */
export const listQuerystring = <S extends string, F extends TProperties>(sortable: readonly S[], filters: F) =>
  Type.Object(
    {
      sort: Type.Optional(
        Type.Unsafe<[S, Order]>({
          type: 'array',
          minItems: 2,
          maxItems: 2,
          items: [{ type: 'string', enum: [...sortable] }, { type: 'string', enum: ['ASC', 'DESC', 'asc', 'desc'] }],
          description: 'JSON: ["field", "ASC" | "DESC"]',
        }),
      ),
      range: Type.Optional(
        Type.Unsafe<[number, number]>({
          type: 'array',
          minItems: 2,
          maxItems: 2,
          items: { type: 'integer', minimum: 0, maximum: 10_000_000 },
          description: 'JSON: [first, last], inclusive',
        }),
      ),
      filter: Type.Optional(
        Type.Object(
          { ...filters, id: Type.Optional(Type.Unsafe<IdFilter>({ type: 'array', maxItems: MAX_RANGE, items: { type: ['string', 'integer'], maxLength: 100 } })) },
          { additionalProperties: false, description: 'JSON: {"field": value}; {"id": [...]} fetches those records' },
        ),
      ),
    },
    { additionalProperties: false },
  );

/** A list's request once validated: the sort, the page of records and the filters. */
export interface ListParams<S extends string, F> {
  sort: { field: S; order: 'asc' | 'desc' };
  offset: number;
  limit: number;
  filter: F;
}

/** A list's answer before it is sent: the page of records and the total of the same filter. */
export interface ListPage<T> {
  offset: number;
  list: T[];
  total: number;
}

/** The validated list parameters with their defaults: the first 25 records, in the given default order. */
export const listParams = <S extends string, F extends object>(
  query: { sort?: [S, Order]; range?: [number, number]; filter?: F },
  defaultSort: [NoInfer<S>, 'ASC' | 'DESC'],
): ListParams<S, Partial<F>> => {
  const [field, order] = query.sort ?? defaultSort;
  const [first, last] = query.range ?? [0, 24];
  if (last < first) fail(ErrorCode.PARAM_RANGE, 'range: the last index is before the first', { field: 'range' });
  if (last - first + 1 > MAX_RANGE) fail(ErrorCode.PARAM_RANGE, `range: at most ${MAX_RANGE} records at once`, { field: 'range', max: MAX_RANGE });
  return { sort: { field, order: order.toUpperCase() === 'ASC' ? 'asc' : 'desc' }, offset: first, limit: last - first + 1, filter: query.filter ?? {} };
};

/** A list answer: the records in the envelope, the total in `Content-Range` (what ra-data-simple-rest reads). */
export const sendList = <T>(reply: FastifyReply, resource: string, { offset, list, total }: ListPage<T>) => {
  const span = list.length > 0 ? `${offset}-${offset + list.length - 1}` : '*';
  void reply.header('Content-Range', `${resource} ${span}/${total}`);
  return ok(list);
};

/** `{id}` of a record: any text up to 100 characters (a level's number or a uuid); each resource answers 10006 for one it does not hold. */
export const idParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
