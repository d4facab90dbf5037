import type { Schema } from './builders';

/** Schemas several areas share. Area-specific ones live beside their paths. */
export const sharedSchemas: Record<string, Schema> = {
  Problem: {
    type: 'object',
    description: 'RFC 9457 problem details.',
    required: ['type', 'title', 'status'],
    properties: {
      type: { type: 'string' },
      title: { type: 'string' },
      status: { type: 'integer', minimum: 400, maximum: 599 },
      detail: { type: 'string' },
      requestId: { type: 'string' },
      errors: {
        type: 'array',
        description: 'Field-level problems: which field or parameter, and what is wrong with it.',
        items: {
          type: 'object',
          required: ['field', 'message'],
          properties: { field: { type: 'string' }, message: { type: 'string' } },
        },
      },
    },
  },
};

export const securitySchemes = {
  bearerKey: {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key (`cfk_…`) sent as `Authorization: Bearer <key>`.',
  },
};
