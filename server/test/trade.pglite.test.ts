import { onDatabase } from './harness';
import { describeTradingTasks } from './tradeTasks';

onDatabase('pglite', (backend) => describeTradingTasks(backend, 'market'));
