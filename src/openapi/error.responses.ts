import { ApiProperty, ApiSchema } from '@nestjs/swagger';

import { STARTUP_ONLY_FIELDS } from '../settings/runtime-config';

/** CONTRACT section 1: every error body (except the config route's, below). */
@ApiSchema({ name: 'Error', description: 'The error envelope of every route: one human-readable message, naming the field for 400.' })
export class ErrorDoc {
  @ApiProperty({ type: String, example: 'limit must be between 1 and 100' })
  error: string;
}

/** PUT /v1/memories/config while CORE_RUNTIME_CONFIG_MUTATION_ENABLED is not `true` (CONTRACT section 7, check 1). */
@ApiSchema({ name: 'ConfigMutationDisabledError' })
export class ConfigMutationDisabledDoc {
  @ApiProperty({ type: String, example: 'PUT /v1/memories/config is deprecated for production and disabled' })
  error: string;

  @ApiProperty({
    type: String,
    description: 'Names the environment variable that enables the route.',
    example: 'Set the environment variable CORE_RUNTIME_CONFIG_MUTATION_ENABLED=true to allow runtime config changes.',
  })
  detail: string;
}

/** PUT /v1/memories/config with startup-only fields (CONTRACT section 7, check 2). */
@ApiSchema({ name: 'ConfigStartupOnlyError' })
export class ConfigStartupOnlyDoc {
  @ApiProperty({ type: String, example: 'Provider and model selection is startup-only' })
  error: string;

  @ApiProperty({
    type: String,
    example: 'These fields are fixed at startup and cannot change at runtime: embedding_model. Set them in the environment and restart.',
  })
  detail: string;

  @ApiProperty({
    type: [String],
    enum: STARTUP_ONLY_FIELDS,
    description: 'The startup-only fields found in the body.',
    example: ['embedding_model'],
  })
  rejected: string[];
}
