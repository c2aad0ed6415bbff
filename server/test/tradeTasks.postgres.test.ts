import { onDatabase } from './harness';
import { describeTradingTasks } from './tradeTasks';

onDatabase('postgres', (backend) => describeTradingTasks(backend, 'tasks'));
