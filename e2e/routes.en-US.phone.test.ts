import { sweepRoutes } from './routeSweep';

sweepRoutes('en-US', 'phone');
