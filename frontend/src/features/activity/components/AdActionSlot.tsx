import { lazy, Suspense } from 'react';
import { useLocation } from 'react-router';

const AdActionRunner = lazy(async () => ({ default: (await import('./AdActionRunner')).AdActionRunner }));

/** Loads the URL action runner only for a page URL that carries an action (target_type). */
export function AdActionSlot() {
  const { search } = useLocation();
  if (!new URLSearchParams(search).has('target_type')) return null;
  return (
    <Suspense fallback={null}>
      <AdActionRunner />
    </Suspense>
  );
}
