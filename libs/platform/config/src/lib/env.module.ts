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
    const env = createEnvValidator(envClass)(source);
    return { global: true, module: EnvModule, providers: [{ provide: envClass, useValue: env }], exports: [envClass] };
  }
}
