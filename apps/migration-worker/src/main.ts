import 'reflect-metadata';
import { runService } from '@acme/platform-http';
import { AppModule } from './app.module';
import { loadEnvSource } from './config/env';
import { migrationService } from './service';

void runService(migrationService, () => AppModule.forRoot(loadEnvSource()));
