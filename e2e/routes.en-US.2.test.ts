import { sweepRoutes } from './routeSweep';

sweepRoutes('en-US', 2);
