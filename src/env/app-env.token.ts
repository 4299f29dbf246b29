/** Injection token for the validated AppEnv (see env.schema.ts). */
export const APP_ENV = Symbol('APP_ENV');
