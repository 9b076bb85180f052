import { describeFoundation } from '@acme/platform-testing';
import { AppModule } from '../src/app.module';
import { managementService } from '../src/service';

describeFoundation(
  { service: managementService, module: (env) => AppModule.forRoot(env) },
  {
    notFoundBody: ({ body }) => {
      expect(body).toEqual({ statusCode: 404, error: 'Not Found', message: 'Not Found', errorCode: 'not_found' });
    },
  },
);
