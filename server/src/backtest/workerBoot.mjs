// A backtest worker thread's entry: TypeScript through tsx (as the server runs), then the worker itself.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
