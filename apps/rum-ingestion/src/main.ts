// First: starts tracing (when OTEL_* asks) before anything loads http, pg or ioredis.
import './tracing';
import 'reflect-metadata';
import { runService } from '@acme/platform-http';
import { AppModule } from './app.module';
import { loadEnvSource } from './config/env';
import { rumService } from './service';

void runService(rumService, () => AppModule.forRoot(loadEnvSource()));
