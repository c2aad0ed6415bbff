import { describeBacktestPresets } from './backtestPresets';
import { onDatabase } from './harness';

onDatabase('pglite', describeBacktestPresets);
