import { sweepRoutes } from './routeSweep';

sweepRoutes('zh-CN', 1);
