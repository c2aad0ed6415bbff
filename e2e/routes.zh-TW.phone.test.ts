import { sweepRoutes } from './routeSweep';

sweepRoutes('zh-TW', 'phone');
