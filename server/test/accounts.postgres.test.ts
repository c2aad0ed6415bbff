import { describeAccountCalls } from './accountCalls';
import { onDatabase } from './harness';

onDatabase('postgres', describeAccountCalls);
