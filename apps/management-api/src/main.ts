// First: starts tracing (when OTEL_* asks) before anything loads http, pg or ioredis.
import './tracing';
import 'reflect-metadata';
import { runService } from '@acme/platform-http';
import { AppModule } from './app.module';
import { loadEnvSource } from './config/env';
import { managementService } from './service';

void runService(managementService, () => AppModule.forRoot(loadEnvSource()));
