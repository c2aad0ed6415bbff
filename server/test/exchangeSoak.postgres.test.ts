import { describe } from 'vitest';
import { describeExchangeSoak } from './exchangeSoak';

describe.runIf(process.env.TEST_DATABASE_URL)('the exchange soak on PostgreSQL', () => {
  describeExchangeSoak('postgres');
});
