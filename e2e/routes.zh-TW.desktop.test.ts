import { sweepRoutes } from './routeSweep';

sweepRoutes('zh-TW', 'desktop');
