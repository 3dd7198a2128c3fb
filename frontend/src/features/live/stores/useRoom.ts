import { useEffect } from 'react';
import { useStores } from '../stores/context';
import type { RoomStore } from './roomStore';

/** The room store, its code loaded on first use (null for the first render meanwhile). */
export function useRoom(): RoomStore | null {
  const root = useStores();
  useEffect(() => {
    void root.loadRoom();
  }, [root]);
  return root.room;
}

/** The room store under a component that renders only once it is loaded. */
export function useLoadedRoom(): RoomStore {
  const room = useStores().room;
  if (!room) throw new Error('room store used before it was loaded');
  return room;
}
