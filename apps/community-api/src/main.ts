// First: starts tracing (when OTEL_* asks) before anything loads http, pg or ioredis.
import './tracing';
import 'reflect-metadata';
import { runService } from '@acme/platform-http';
import { AppModule } from './app.module';
import { loadEnvSource } from './config/env';
import { communityService } from './service';

void runService(communityService, () => AppModule.forRoot(loadEnvSource()));
