import { useState } from 'react';
import { RouterProvider } from 'react-router-dom';
import { createAppRouter } from './router';

/** The router holds every provider (the session provider sits in its root route). */
export function App() {
  const [router] = useState(createAppRouter);
  return <RouterProvider router={router} />;
}
