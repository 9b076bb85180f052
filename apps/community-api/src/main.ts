import 'reflect-metadata';
import { runService } from '@acme/platform-http';
import { AppModule } from './app.module';
import { loadEnvSource } from './config/env';
import { communityService } from './service';

void runService(communityService, () => AppModule.forRoot(loadEnvSource()));
