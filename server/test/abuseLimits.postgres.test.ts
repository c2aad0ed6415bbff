import { describeAbuseLimits } from './abuseLimits';
import { onDatabase } from './harness';

onDatabase('postgres', describeAbuseLimits);
