import { onDatabase } from './harness';
import { describeTaskWebhook } from './taskWebhook';

onDatabase('pglite', (backend) => describeTaskWebhook(backend, 'refusals'));
