import { describeExchangeFaults } from './exchangeFaultsVisible';
import { onDatabase } from './harness';

onDatabase('postgres', describeExchangeFaults);
