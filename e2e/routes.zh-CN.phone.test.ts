import { sweepRoutes } from './routeSweep';

sweepRoutes('zh-CN', 'phone');
