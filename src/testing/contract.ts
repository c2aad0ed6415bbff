import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { addApiFormats } from '../api/formats';
import openapi from './openapi.json';

/**
 * The server's published API (its OpenAPI document, committed as
 * openapi.json by `npm run contract:snapshot` and kept current by a server
 * test) as a checker for the test network: a request the server would refuse,
 * or an answer it could never give, is a contract violation.
 *
 * Validation mirrors the server's (server/src/http/validation.ts): bodies
 * strictly, query strings and path parameters coerced from text. The operator
 * console's `sort`, `range` and `filter` (ra-data-simple-rest) arrive as JSON
 * text and are parsed first, as the server does: any parameter whose schema is
 * an array or an object. Stricter than the server in one way: a query
 * parameter the route does not declare is refused (the server may ignore it,
 * which is drift all the same).
 *
 * Success answers are checked against the route's response schema (every
 * route declares one), with the properties it lists as the only ones allowed,
 * since the server sends no others.
 */

interface Schema {
  type?: string | string[];
  [keyword: string]: unknown;
}
interface Parameter {
  in: string;
  name: string;
  required?: boolean;
  schema: Schema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

const options = { allErrors: false, removeAdditional: false, strict: false } as const;
const strict = new Ajv({ ...options, coerceTypes: false, useDefaults: true });
const coercing = new Ajv({ ...options, coerceTypes: 'array', useDefaults: true });
const answers = new Ajv({ ...options, coerceTypes: false, useDefaults: false });
for (const ajv of [strict, coercing, answers]) {
  addFormats.default(ajv);
  addApiFormats(ajv);
}

interface Route {
  /** "GET /api/exchange/detail/{id}" */
  name: string;
  method: string;
  pattern: RegExp;
  pathNames: string[];
  operation: Operation;
}

const routes: Route[] = Object.entries(openapi.paths as Record<string, Record<string, Operation>>)
  .flatMap(([template, operations]) =>
    Object.entries(operations).map(([method, operation]) => {
      const pathNames = [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
      const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '([^/]+)');
      return { name: `${method.toUpperCase()} ${template}`, method: method.toUpperCase(), pattern: new RegExp(`^${source}$`), pathNames, operation };
    }),
  )
  // A fixed path wins over a parameter, as in the server's router.
  .sort((a, b) => a.pathNames.length - b.pathNames.length);

const compiled = new Map<string, ValidateFunction>();
const compile = (ajv: Ajv, key: string, schema: Schema) => {
  let validate = compiled.get(key);
  if (!validate) compiled.set(key, (validate = ajv.compile(schema)));
  return validate;
};

const objectOf = (parameters: Parameter[]): Schema => ({
  type: 'object',
  properties: Object.fromEntries(parameters.map((parameter) => [parameter.name, parameter.schema])),
  required: parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
});

const describe = (part: string, errors: ErrorObject[] | null | undefined) =>
  (errors ?? [])
    .map((error) => {
      const where = `${part}${error.instancePath}`;
      const allowed = error.keyword === 'enum' ? ` (${(error.params as { allowedValues: unknown[] }).allowedValues.map((value) => (typeof value === 'string' ? value : JSON.stringify(value))).join(', ')})` : '';
      const extra = error.keyword === 'additionalProperties' ? ` '${(error.params as { additionalProperty: string }).additionalProperty}'` : '';
      return `${where} ${error.message}${extra}${allowed}`;
    })
    .join('; ');

export interface Checked {
  /** The route the request matched (its name e.g. "GET /api/exchange/detail/{id}"); undefined when none did. */
  route?: Route;
  /** What the server would refuse; empty when the request is valid. */
  errors: string[];
}

/** Checks one request against the published routes. */
export const checkRequest = (method: string, url: string, body: unknown): Checked => {
  const { pathname, searchParams } = new URL(url, 'http://localhost');
  const matches = routes.filter((candidate) => candidate.pattern.test(pathname));
  const route = matches.find((candidate) => candidate.method === method);
  if (!route) {
    const known = matches.map((candidate) => candidate.method).join(', ');
    return { errors: [known ? `${method} is not allowed on ${pathname} (only ${known})` : `no route ${method} ${pathname} in the server's API`] };
  }
  const errors: string[] = [];
  const parameters = route.operation.parameters ?? [];

  const pathValues = pathname.match(route.pattern)!.slice(1);
  const path = Object.fromEntries(route.pathNames.map((name, index) => [name, decodeURIComponent(pathValues[index]!)]));
  const pathSchema = objectOf(parameters.filter((parameter) => parameter.in === 'path'));
  const validPath = compile(coercing, `${route.name} path`, pathSchema);
  if (!validPath(path)) errors.push(describe('params', validPath.errors));

  const declared = parameters.filter((parameter) => parameter.in === 'query');
  const query: Record<string, unknown> = {};
  for (const name of new Set(searchParams.keys())) {
    const parameter = declared.find((candidate) => candidate.name === name);
    if (!parameter) {
      errors.push(`querystring has the unknown parameter '${name}' (the route takes: ${declared.map((candidate) => candidate.name).join(', ') || 'none'})`);
      continue;
    }
    const values = searchParams.getAll(name);
    const type = parameter.schema.type;
    if (type === 'array' || type === 'object') {
      try {
        query[name] = JSON.parse(values[0]!);
      } catch {
        errors.push(`querystring/${name} must be JSON`);
      }
    } else {
      query[name] = values.length === 1 ? values[0] : values;
    }
  }
  const validQuery = compile(coercing, `${route.name} query`, objectOf(declared));
  if (!validQuery(query)) errors.push(describe('querystring', validQuery.errors));

  const bodySchema = route.operation.requestBody?.content?.['application/json']?.schema;
  if (bodySchema) {
    const validBody = compile(strict, `${route.name} body`, bodySchema);
    if (body === undefined) {
      if (route.operation.requestBody?.required) errors.push('body is required');
    } else if (!validBody(structuredClone(body))) {
      errors.push(describe('body', validBody.errors));
    }
  }
  return { route, errors };
};

/**
 * A response schema as the server's serializer applies it: it sends only the
 * properties an object schema lists, so a field a test answers beyond them is
 * one the dashboard would never receive.
 */
const closed = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(closed);
  if (!node || typeof node !== 'object') return node;
  const copy = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, key === 'enum' ? value : closed(value)])) as Schema;
  if (copy.properties && copy.additionalProperties === undefined) copy.additionalProperties = false;
  return copy;
};

/** Checks a success answer (code 0) against the route's response schema for its status, when the document has one. */
export const checkAnswer = (route: Route, status: number, body: unknown): string | undefined => {
  if ((body as { code?: unknown } | null)?.code !== 0) return undefined; // errors bypass the response schemas
  const schema = route.operation.responses?.[String(status)]?.content?.['application/json']?.schema;
  if (!schema) return undefined;
  const validAnswer = compile(answers, `${route.name} answer ${status}`, closed(schema) as Schema);
  return validAnswer(body) ? undefined : describe('answer', validAnswer.errors);
};
