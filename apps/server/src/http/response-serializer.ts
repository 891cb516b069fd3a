import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';

/**
 * Response schemas whose payloads the server builds field by field from typed rows, and whose
 * payloads are large: a day view is 1,440 points or more. Checking such a payload against its schema
 * (what the zod serializer does for every answer: it also drops any field the schema does not
 * name) took about 4 ms of a day view's 17 ms in the server. Outside production they are still
 * checked, so a builder that strays from its schema fails the tests; in production they are
 * written as built.
 */
const builtByServer = new WeakSet<object>();

/** Marks a route's response schema as one whose payloads the server builds field by field. */
export function builtFieldByField<T extends z.ZodType>(schema: T): T {
  builtByServer.add(schema);
  return schema;
}

/** The zod serializer, with the marked schemas' payloads written without a check in production. */
export function responseSerializerCompiler(options: { checkEveryResponse: boolean }): FastifySerializerCompiler<unknown> {
  return (route) => {
    const checked = serializerCompiler(route as Parameters<typeof serializerCompiler>[0]);
    if (options.checkEveryResponse || typeof route.schema !== 'object' || route.schema === null || !builtByServer.has(route.schema))
      return checked;
    return (data: unknown) => JSON.stringify(data);
  };
}
