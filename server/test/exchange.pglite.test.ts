import { describeCcxtErrors, describeExchangeAccounts } from './exchangeAccounts';
import { onDatabase } from './harness';

describeCcxtErrors();
onDatabase('pglite', describeExchangeAccounts);
