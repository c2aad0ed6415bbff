import HomeIcon from '@mui/icons-material/Home';
import { createElement } from 'react';
import { lazyPage, type Domain } from '../domain';

/** `/`: react-admin's dashboard slot renders the home page (App.tsx). */
export const HomePage = lazyPage(() => import('./HomePage'), 'HomePage', ['HomeReturns']);

export const home = {
  menu: [{ to: '/', labelKey: 'nav.home', icon: createElement(HomeIcon), place: 'tab', order: 10 }],
} satisfies Domain;
