import { expect, it } from 'vitest';
import { z } from 'zod';
import { builtFieldByField, responseSerializerCompiler } from './response-serializer.js';

const route = (schema: z.ZodType) => ({ schema, method: 'GET', url: '/x', httpStatus: '200' });
const point = z.object({ at: z.iso.datetime(), value: z.number() });
const strayed = { at: 'yesterday', value: 1, secret: 'x' };
/** The same shape, marked as built field by field. */
const marked = builtFieldByField(z.object({ at: z.iso.datetime(), value: z.number() }));

it('checks every answer outside production, marked schemas too', () => {
  const serialize = responseSerializerCompiler({ checkEveryResponse: true })(route(marked));
  expect(() => serialize(strayed)).toThrow();
  expect(serialize({ at: '2026-11-29T10:00:00.000Z', value: 1 })).toBe('{"at":"2026-11-29T10:00:00.000Z","value":1}');
});

it('in production writes a marked schema’s payload as built, and still checks (and trims) the others', () => {
  const compile = responseSerializerCompiler({ checkEveryResponse: false });
  expect(compile(route(marked))(strayed)).toBe(JSON.stringify(strayed));
  const unmarked = compile(route(point));
  expect(() => unmarked(strayed)).toThrow();
  expect(unmarked({ at: '2026-11-29T10:00:00.000Z', value: 1, secret: 'x' })).toBe('{"at":"2026-11-29T10:00:00.000Z","value":1}');
});
