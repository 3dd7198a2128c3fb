import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useStores } from '../stores/context';

/** Lets store actions change page (after logout, '进入游戏', ...) through the router. */
export function NavigationBridge() {
  const { ui } = useStores();
  const navigate = useNavigate();
  useEffect(() => {
    ui.setNavigator((path) => navigate(path));
    return () => ui.setNavigator(null);
  }, [ui, navigate]);
  return null;
}
