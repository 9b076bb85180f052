import { describeFoundation } from '@acme/platform-testing';
import { AppModule } from '../src/app.module';
import { rumService } from '../src/service';

describeFoundation(
  { service: rumService, module: (env) => AppModule.forRoot(env) },
  {
    notFoundBody: ({ body, headers }) => {
      expect(body).toEqual({
        request_id: headers.get('service-request-id'),
        error: { code: 'InvalidParameter', message: 'The specified parameter is not valid.' },
      });
      expect(headers.get('service-request-id')).toBe(headers.get('x-request-id'));
    },
  },
);
