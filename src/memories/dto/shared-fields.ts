import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';

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
