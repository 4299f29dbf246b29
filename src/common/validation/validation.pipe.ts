import { ValidationError, ValidationPipe } from '@nestjs/common';

import { DomainError } from '../errors/domain-error';

const TYPE_CHECKS = ['whitelistValidation', 'isString', 'isInt', 'isNumber', 'isBoolean', 'isArray', 'isObject', 'isUuid', 'isIn'];
const priority = (key: string): number => {
  const index = TYPE_CHECKS.indexOf(key);
  return index === -1 ? TYPE_CHECKS.length : index;
};

function firstMessage(errors: ValidationError[], parent = ''): string | undefined {
  for (const error of errors) {
    const path = parent ? `${parent}.${error.property}` : error.property;
    if (error.constraints) {
      // Report the type problem before range or length problems ("limit must be an integer",
      // not "limit must be between 1 and 100" for limit=abc).
      const keys = Object.keys(error.constraints).sort((a, b) => priority(a) - priority(b));
      const message = error.constraints[keys[0]];
      // class-validator messages start with the property name; make it the full path.
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
