import { sweepRoutes } from './routeSweep';

sweepRoutes('zh-TW', 1);
