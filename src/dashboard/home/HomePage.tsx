import { Protected } from '../../authProvider/guards';
import { placeholderScreen } from '../layout/Screen';

const Home = placeholderScreen('page.home', { back: false });

/** `/`: react-admin's dashboard slot, behind the same guard as every protected page. */
export const HomePage = () => (
  <Protected>
    <Home />
  </Protected>
);
