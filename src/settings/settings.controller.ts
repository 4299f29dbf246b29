import { Body, Controller, Get, HttpCode, Put } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBody, ApiGoneResponse, ApiOkResponse, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';

import { CallerActor } from '../common/identity/caller.decorator';
import type { Actor } from '../common/identity/principal';
import { Access } from '../common/identity/route-access';
import { ApiAdminWithApiKey, ApiBodyTooLarge, ApiInternalError, ApiKeyAuth } from '../openapi/api-errors';
import { ErrorDoc } from '../openapi/error.responses';
import {
  ConfigAppliedDoc,
  ConfigMutationDisabledDoc,
  ConfigStartupOnlyDoc,
  RuntimeConfigUpdateDoc,
  ServiceHealthDoc,
} from './settings.responses';
import { SettingsService } from './settings.service';

@ApiTags('Settings')
@ApiInternalError()
@Controller('v1/memories')
export class SettingsController {
  constructor(private readonly settings: SettingsService) {}

  @Get('health')
  @ApiKeyAuth()
  @ApiOperation({ summary: 'Service health with the effective runtime config' })
  @ApiOkResponse({ type: ServiceHealthDoc, description: 'Up, with the effective config.' })
  health(): { status: 'ok'; config: Record<string, unknown> } {
    return { status: 'ok', config: this.settings.describe() };
  }

  /** The body is checked by SettingsService.apply in the order CONTRACT section 7 fixes. */
  @Put('config')
  @Access('admin-with-api-key')
  @ApiAdminWithApiKey()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Change the runtime config',
    description:
      'Only when CORE_RUNTIME_CONFIG_MUTATION_ENABLED=true (else 410). Checks, in order: mutation disabled (410), ' +
      'startup-only fields (400 with `detail` and `rejected`), unknown fields or wrong types/ranges (400 naming the field), ' +
      'then stores every field or none in the database (a new `config_version`), and every instance applies it within a second.',
  })
  @ApiBody({ type: RuntimeConfigUpdateDoc })
  @ApiOkResponse({ type: ConfigAppliedDoc, description: 'Applied; the new effective config.' })
  @ApiGoneResponse({ type: ConfigMutationDisabledDoc, description: 'Runtime config mutation is disabled (the default).' })
  @ApiBodyTooLarge()
  @ApiBadRequestResponse({
    description:
      'Startup-only fields (`{error, detail, rejected}`), or an unknown field, a wrong type or range, an empty or non-object body, or malformed JSON (`{error}`).',
    schema: { anyOf: [{ $ref: getSchemaPath(ConfigStartupOnlyDoc) }, { $ref: getSchemaPath(ErrorDoc) }] },
    examples: {
      startupOnly: {
        summary: 'startup-only field',
        value: {
          error: 'Provider and model selection is startup-only',
          detail:
            'These fields are fixed at startup and cannot change at runtime: embedding_model. Set them in the environment and restart.',
          rejected: ['embedding_model'],
        },
      },
      unknown: { summary: 'unknown field', value: { error: 'colour is not a runtime config field (known: max_search_results, ...)' } },
      range: { summary: 'out of range', value: { error: 'lesson_similarity_threshold must be a number between 0 and 1' } },
      empty: { summary: 'empty body', value: { error: 'body must contain at least one of: max_search_results, ...' } },
      malformed: { summary: 'malformed JSON', value: { error: 'Malformed JSON in request body' } },
    },
  })
  update(@Body() body: unknown, @CallerActor() actor: Actor): Promise<{ applied: string[]; config: Record<string, unknown> }> {
    return this.settings.apply(body, actor);
  }
}
