import { newcomersFirstHour } from './newcomerJourney';

newcomersFirstHour('desktop');
