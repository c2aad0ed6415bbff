import { describeSessionCalls } from './accountCalls';
import { onDatabase } from './harness';

onDatabase('postgres', describeSessionCalls);
