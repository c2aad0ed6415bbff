import { onDatabase } from './harness';
import { describeTaskWebhook } from './taskWebhook';

onDatabase('postgres', (backend) => describeTaskWebhook(backend, 'refusals'));
