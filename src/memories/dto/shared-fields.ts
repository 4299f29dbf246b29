import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, Length, Max, Min, ValidateIf } from 'class-validator';

import { IsTimestamp, TIMESTAMP_FORMAT_HINT } from '../../common/validation/timestamp';
import { ToInt } from '../../common/validation/transforms';
import { LIMITS } from './limits';

/** `limit`: an optional integer 1..100 (query strings converted explicitly). */
export const PageLimit = (defaultValue: number, description?: string): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({
      type: 'integer',
      minimum: 1,
      maximum: LIMITS.pageSize,
      default: defaultValue,
      example: Math.min(defaultValue, 5),
      description,
    }),
    IsOptional(),
    ToInt(),
    IsInt({ message: 'limit must be an integer' }),
    Min(1, { message: 'limit must be between 1 and 100' }),
    Max(LIMITS.pageSize, { message: 'limit must be between 1 and 100' }),
  );

/** `source_site` as a filter: user scope only, ignored in workspace scope (spec 4.2.6). */
export const SourceSiteFilter = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({
      type: String,
      minLength: 1,
      maxLength: LIMITS.sourceSite,
      description: 'User scope only; ignored in workspace scope.',
      example: 'chat.example',
    }),
    IsOptional(),
    IsString({ message: 'source_site must be a string' }),
    Length(1, LIMITS.sourceSite, { message: `source_site must be 1 to ${LIMITS.sourceSite} characters` }),
  );

/**
 * `expires_at` (CONTRACT section 12): when the memory stops being returned; `null` on PATCH
 * clears it (the request-input middleware keeps that one null). RFC 3339 or a date.
 */
export const ExpiresAtField = (description: string): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, description, example: '2026-12-31T00:00:00Z' }),
    IsOptional(),
    ValidateIf((_object: object, value: unknown) => value !== null),
    IsTimestamp({ message: `expires_at must be ${TIMESTAMP_FORMAT_HINT} (or null to clear it)` }),
  );

/** `include_expired=true` on get and list: expired memories too (CONTRACT section 12). */
export const IncludeExpiredFlag = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({
      type: Boolean,
      default: false,
      description: 'Also return memories past their `expires_at` (until they are purged).',
      example: false,
    }),
    IsOptional(),
    Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value)),
    IsBoolean({ message: 'include_expired must be true or false' }),
  );
