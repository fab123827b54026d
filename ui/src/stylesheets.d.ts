// Stylesheets are imported for their side effect; Vite bundles them (TypeScript checks that an imported module exists).
declare module '*.css';
