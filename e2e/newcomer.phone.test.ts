import { newcomersFirstHour } from './newcomerJourney';

newcomersFirstHour('phone');
