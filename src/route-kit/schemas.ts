/**
 * Shared route schemas (TypeBox), part of the route kit (src/route-kit: what route files of the
 * modules build on, below the app in src/http). Route files build request/response schemas from
 * these so that validation, TypeScript types, serialisation and the OpenAPI document come from
 * one definition.
 */
import { Type, type Static, type TSchema } from 'typebox';
import { ID_PATTERN } from '../core/ids.ts';

export const Id = (description = 'Object id (24 hex characters)') => Type.String({ pattern: ID_PATTERN, description });

/** ISO 8601 UTC timestamp string in responses. */
export const Timestamp = (description?: string) => Type.String({ format: 'date-time', ...(description ? { description } : {}) });

/**
 * A scalar schema (string, number, integer, boolean) that also allows null, written as a type
 * list (`type: ["string", "null"]`, OpenAPI 3.1) rather than `anyOf`. The response serializer
 * (fast-json-stringify) runs a full schema validation per `anyOf` branch to choose one, which
 * for a `date-time` string means parsing the date; with a type list it only checks `typeof`.
 */
export function Nullable<T extends TSchema & { type: string }>(schema: T) {
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [schema.type, 'null'] });
}

export const NullableTimestamp = (description?: string) => Nullable(Timestamp(description));

export const ErrorResponse = Type.Object(
  {
    error: Type.String({ description: 'Human-readable message' }),
    code: Type.String({ description: 'Machine code, e.g. VALIDATION_ERROR, NOT_FOUND, UNAUTHORIZED' }),
    details: Type.Optional(Type.Object({}, { additionalProperties: true })),
    requestId: Type.Optional(Type.String()),
  },
  { additionalProperties: true, $id: 'ErrorResponse' },
);

/** Standard error responses to attach to every route's `response`. */
export function errors(...statuses: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  for (const s of [400, 401, 404, ...statuses]) out[s] = Type.Ref('ErrorResponse');
  return out;
}

export const MessageResponse = Type.Object({ message: Type.String() });

export const Pagination = Type.Object({
  page: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Integer(),
  pages: Type.Integer(),
});
