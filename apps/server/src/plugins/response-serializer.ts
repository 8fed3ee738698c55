import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Response bodies are written by a serialiser compiled once per route from its zod response
 * schema (turned into JSON Schema, the form fast-json-stringify compiles), as Fastify intends.
 * Outgoing data is ours, so it is not validated again on every answer: the zod serialiser that
 * parsed and re-encoded each body was a fifth of a plans request (bench/results/api-overhead.md).
 * Only the properties the schema declares are written, as before: a row with more columns than
 * the contract (a password hash) never leaks. A schema JSON Schema cannot express falls back to
 * the zod serialiser.
 */
export const responseSerializerCompiler: FastifySerializerCompiler<z.ZodType> = (route) => {
  try {
    const jsonSchema = z.toJSONSchema(route.schema, {
      io: 'output',
      target: 'draft-7',
      unrepresentable: 'throw',
    });
    return fastJson(jsonSchema as Parameters<typeof fastJson>[0]) as (data: unknown) => string;
  } catch {
    return zodSerializerCompiler(route as Parameters<typeof zodSerializerCompiler>[0]);
  }
};
