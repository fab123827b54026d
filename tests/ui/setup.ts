/** Testing Library's DOM matchers, and a clean DOM after each test (vitest runs without globals). */
import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => cleanup());
