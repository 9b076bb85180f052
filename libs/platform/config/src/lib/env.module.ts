import { DynamicModule, Module } from '@nestjs/common';
import { ClassConstructor } from 'class-transformer';
import { createEnvValidator } from './validate-env';

/**
 * Validates an app's env once, when the app module is built, and provides the typed result under its own
 * class as the DI token. A bad variable stops the app before anything connects.
 */
@Module({})
export class EnvModule {
  static forRoot<T extends object>(envClass: ClassConstructor<T>, source: Record<string, unknown>): DynamicModule {
    return EnvModule.forValidated(envClass, createEnvValidator(envClass)(source));
  }

  /** For an app that validated its env itself (to choose its modules by it): provided as is, not validated again. */
  static forValidated<T extends object>(envClass: ClassConstructor<T>, env: T): DynamicModule {
    return { global: true, module: EnvModule, providers: [{ provide: envClass, useValue: env }], exports: [envClass] };
  }
}
