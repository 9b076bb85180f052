import 'reflect-metadata';
import { runService } from '@acme/platform-http';
import { AppModule } from './app.module';
import { loadEnvSource } from './config/env';
import { managementService } from './service';

void runService(managementService, () => AppModule.forRoot(loadEnvSource()));
