import { describeExchangeAccounts } from './exchangeAccounts';
import { onDatabase } from './harness';

onDatabase('postgres', describeExchangeAccounts);
