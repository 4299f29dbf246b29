import { ValidationError, ValidationPipe } from '@nestjs/common';

import { DomainError } from '../errors/domain-error';

function firstMessage(errors: ValidationError[], parent = ''): string | undefined {
  for (const error of errors) {
    const path = parent ? `${parent}.${error.property}` : error.property;
    if (error.constraints) {
      // class-validator messages start with the property name; make it the full path.
      const message = Object.values(error.constraints)[0];
      return message.startsWith(error.property) ? path + message.slice(error.property.length) : `${path}: ${message}`;
    }
    const nested = firstMessage(error.children ?? [], path);
    if (nested) return nested;
  }
  return undefined;
}

/**
 * DTO validation at the edge: unknown fields are rejected (not silently dropped), query
 * strings are converted explicitly by the DTOs' own @Transform decorators, and the first
 * failure becomes a 400 `{ error }` that names the field.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new DomainError('VALIDATION_FAILED', firstMessage(errors) ?? 'Invalid input'),
  });
}
