import { describeFoundation } from '@acme/platform-testing';
import { AppModule } from '../src/app.module';
import { communityService } from '../src/service';

describeFoundation(
  { service: communityService, module: (env) => AppModule.forRoot(env) },
  {
    notFoundBody: ({ body }) => {
      expect(body).toEqual({ error: 'Not Found', code: 'route/not-found' });
    },
  },
);
