import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { AppError } from './app-error';
import { PlatformErrorCode } from './platform-error-code';

export interface ValidationIssue {
  property: string;
  constraints: string[];
}

/** Flattens nested class-validator errors into dotted property paths. */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): ValidationIssue[] {
  return errors.flatMap((error) => {
    const property = parent ? `${parent}.${error.property}` : error.property;
    const own = error.constraints ? [{ property, constraints: Object.values(error.constraints) }] : [];
    return [...own, ...flattenValidationErrors(error.children ?? [], property)];
  });
}

export function validationFailed(issues: ValidationIssue[], location = 'body'): AppError {
  const first = issues[0];
  const message = first ? `${first.constraints[0] ?? `${first.property} is invalid`}` : 'Invalid request';
  return new AppError(PlatformErrorCode.ValidationFailed, 'validation', message, { details: { location, issues } });
}

/**
 * The global pipe: unknown properties are errors, payloads become DTO instances, and the failure says
 * where it was found (`body`, `query`, `param`) so presenters can name it.
 */
export class AppValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      exceptionFactory: (errors) => validationFailed(flattenValidationErrors(errors)),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    try {
      return await super.transform(value, metadata);
    } catch (error) {
      if (error instanceof AppError && error.code === 'VALIDATION_FAILED') {
        const issues = (error.details?.['issues'] as ValidationIssue[]) ?? [];
        throw validationFailed(issues, metadata.type);
      }
      throw error;
    }
  }
}
