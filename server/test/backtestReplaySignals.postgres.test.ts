import { onDatabase } from './harness';
import { describeBacktestReplay } from './backtestReplay';

onDatabase('postgres', (backend) => describeBacktestReplay(backend, 'signals'));
