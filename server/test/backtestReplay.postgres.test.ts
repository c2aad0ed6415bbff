import { onDatabase } from './harness';
import { describeBacktestReplay } from './backtestReplay';

onDatabase('postgres', describeBacktestReplay);
