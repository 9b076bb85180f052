import { describeFoundation } from '@acme/platform-testing';
import { AppModule } from '../src/app.module';
import { migrationService } from '../src/service';

describeFoundation(
  { service: migrationService, module: (env) => AppModule.forRoot(env) },
  {
    notFoundBody: ({ body }) => {
      expect(body).toEqual({ error: { message: 'Not Found', status: 'NOT_FOUND' } });
    },
  },
);
