import { onDatabase } from './harness';
import { describeBacktestReplay } from './backtestReplay';

onDatabase('pglite', (backend) => describeBacktestReplay(backend, 'signals'));
