import { describe } from 'vitest';
import { describeExchangeSoak } from './exchangeSoak';

describe('the exchange soak on PGlite', () => {
  describeExchangeSoak('pglite');
});
