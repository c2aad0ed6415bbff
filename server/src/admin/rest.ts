import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '../../../src/api/errors';
import { ok } from '../http/envelope';
import { fail } from '../http/errors';
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

/** preValidation hook of list routes: `sort`, `range` and `filter` from JSON text to values (10003 when not JSON). */
export const parseListParams = async (request: FastifyRequest): Promise<void> => {
  const query = request.query as Record<string, unknown>;
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

export interface ListParams<F> {
  sort: { field: string; order: 'asc' | 'desc' };
  offset: number;
  limit: number;
  filter: F;
}

/**
 * The querystring schema of a list: the sortable fields, the range and the
 * filters it understands (an unknown sort field or filter is refused, 10008).
 */
export const listQuerystring = (sortable: readonly string[], filters: Record<string, object>) => ({
  type: 'object',
  additionalProperties: false,
  properties: {
    sort: {
      type: 'array',
      minItems: 2,
      maxItems: 2,
      items: [{ type: 'string', enum: [...sortable] }, { type: 'string', enum: ['ASC', 'DESC', 'asc', 'desc'] }],
      description: 'JSON: ["field", "ASC" | "DESC"]',
    },
    range: {
      type: 'array',
      minItems: 2,
      maxItems: 2,
      items: { type: 'integer', minimum: 0, maximum: 10_000_000 },
      description: 'JSON: [first, last], inclusive',
    },
    filter: {
      type: 'object',
      additionalProperties: false,
      properties: { ...filters, id: { type: 'array', maxItems: MAX_RANGE, items: { type: ['string', 'integer'], maxLength: 100 } } },
      description: 'JSON: {"field": value}; {"id": [...]} fetches those records',
    },
  },
});

/** The validated list parameters with their defaults: the first 25 records, in the given default order. */
export const listParams = <F>(request: FastifyRequest, defaultSort: [string, 'ASC' | 'DESC']): ListParams<F> => {
  const query = request.query as { sort?: [string, string]; range?: [number, number]; filter?: F };
  const [field, order] = query.sort ?? defaultSort;
  const [first, last] = query.range ?? [0, 24];
  if (last < first) fail(ErrorCode.PARAM_RANGE, 'range: the last index is before the first', { field: 'range' });
  if (last - first + 1 > MAX_RANGE) fail(ErrorCode.PARAM_RANGE, `range: at most ${MAX_RANGE} records at once`, { field: 'range', max: MAX_RANGE });
  return { sort: { field, order: order.toUpperCase() === 'ASC' ? 'asc' : 'desc' }, offset: first, limit: last - first + 1, filter: (query.filter ?? {}) as F };
};

/** A list answer: the records in the envelope, the total in `Content-Range` (what ra-data-simple-rest reads). */
export const sendList = <T>(reply: FastifyReply, resource: string, offset: number, list: T[], total: number) => {
  const span = list.length > 0 ? `${offset}-${offset + list.length - 1}` : '*';
  void reply.header('Content-Range', `${resource} ${span}/${total}`);
  return ok(list);
};

/** `{id}` of a record: any text up to 100 characters (a level's number or a uuid); each resource answers 10006 for one it does not hold. */
export const idParams = Type.Object({ id: Type.String({ maxLength: 100 }) });

/** A body of only the given fields (unknown ones refused, 10008). */
export const strictBody = (properties: Record<string, object>, required: string[] = [], extra: object = {}) => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
  ...extra,
});

export const envelopeOf = (data: object) => ({ type: 'object', properties: { code: { type: 'integer' }, message: { type: 'string' }, data } });
