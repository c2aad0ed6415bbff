import { sweepRoutes } from './routeSweep';

sweepRoutes('en-US', 1);
