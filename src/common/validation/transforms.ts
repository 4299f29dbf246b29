import { Transform } from 'class-transformer';
import { IsString, MaxLength, MinLength, registerDecorator, type ValidationOptions } from 'class-validator';

import { NOT_ONE_LINE } from '../../contract/wire-types';
import { MAX_USER_ID_LENGTH, SCOPE_MESSAGES } from '../scope/parse-memory-scope';

/** Query strings arrive as text: convert base-10 integers explicitly, leave anything else to fail validation. */
export const ToInt = (): PropertyDecorator =>
  Transform(({ value }) => (typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value));

/** Lower-case UUID strings so SQL comparisons are exact (UUIDs are case-insensitive on the wire). */
export const LowerCase = (): PropertyDecorator => Transform(({ value }) => (typeof value === 'string' ? value.toLowerCase() : value));

export const LowerCaseEach = (): PropertyDecorator =>
  Transform(({ value }) => (Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v.toLowerCase() : v)) : value));

/** A JSON object (not an array or null) whose serialised size is at most `maxBytes`. */
export function IsSmallJsonObject(maxBytes: number, options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isSmallJsonObject',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: `$property must be a JSON object of at most ${Math.round(maxBytes / 1024)} KB`,
        ...options,
      },
      validator: {
        validate(value: unknown) {
          if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
          return Buffer.byteLength(JSON.stringify(value), 'utf8') <= maxBytes;
        },
      },
    });
  };
}

/** A string, or a non-empty array of strings, each 1..maxLength characters. */
export function IsStringOrStringArray(maxItems: number, maxLength: number, options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isStringOrStringArray',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: `$property must be a string or an array of 1 to ${maxItems} strings (each 1 to ${maxLength} characters)`,
        ...options,
      },
      validator: {
        validate(value: unknown) {
          const ok = (s: unknown) => typeof s === 'string' && s.length > 0 && s.length <= maxLength;
          if (Array.isArray(value)) return value.length > 0 && value.length <= maxItems && value.every(ok);
          return ok(value);
        },
      },
    });
  };
}

/**
 * A user_id field outside the scope parser (lessons, agents): the same rules and messages as
 * parseMemoryScope, so a 300-character id gets "at most 256" on every route.
 */
export const IsUserId = (): PropertyDecorator => (target: object, propertyName: string | symbol) => {
  IsString({ message: SCOPE_MESSAGES.userId })(target, propertyName);
  MinLength(1, { message: SCOPE_MESSAGES.userId })(target, propertyName);
  MaxLength(MAX_USER_ID_LENGTH, { message: SCOPE_MESSAGES.userIdTooLong })(target, propertyName);
};

/** One line of printable text (no control characters or line breaks); `$property` names the field. */
export function IsOneLine(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isOneLine',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: '$property must be one line of printable text (no line breaks or control characters)', ...options },
      validator: {
        validate(value: unknown) {
          return typeof value === 'string' && !NOT_ONE_LINE.test(value);
        },
      },
    });
  };
}
