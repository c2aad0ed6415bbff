import { describeAttentionTexts, describeExchangeFaults } from './exchangeFaultsVisible';
import { onDatabase } from './harness';

describeAttentionTexts();
onDatabase('pglite', describeExchangeFaults);
