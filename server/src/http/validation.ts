import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { addApiFormats } from '../../../src/api/formats';

/**
 * Bodies are validated strictly (no type coercion, unknown fields refused),
 * so "10" where a number belongs is a type error (10001), not a silent cast.
 * Query strings and path parameters arrive as text and are coerced.
 */
export const registerValidation = (app: FastifyInstance) => {
  const strict = new Ajv({ allErrors: false, coerceTypes: false, removeAdditional: false, useDefaults: true, strict: false });
  const coercing = new Ajv({ allErrors: false, coerceTypes: 'array', removeAdditional: false, useDefaults: true, strict: false });
  addFormats.default(strict);
  addFormats.default(coercing);
  addApiFormats(strict);
  addApiFormats(coercing);
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? strict : coercing).compile(schema),
  );
};
